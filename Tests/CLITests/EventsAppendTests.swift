import EventStore
import Testing

@testable import JournalApp
@testable import JournalHTTP

/// `POST /v1/events` bodies applied in process: a large body is prepared a chunk ahead of the
/// writer, and must come out the same as a small one checked line by line.
@Suite("journal serve appends of large bodies")
struct EventsAppendTests {
    /// `count` legal lines: challenged 3DS transactions of 9 events each, cut to `count`.
    private static func body(lines count: Int, replacing bad: (line: Int, text: String)? = nil) -> [UInt8] {
        var events = LegalEvents()
        var lines: [String] = []
        var n = 0
        while lines.count < count {
            n += 1
            lines += events.challenged(n)
        }
        lines = Array(lines.prefix(count))
        if let bad { lines[bad.line - 1] = bad.text }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    private static func apply(_ body: [UInt8]) throws -> (EventsAppend.Outcome, head: Int64) {
        let store = try SQLiteEventStore(path: ":memory:")
        guard case let .success(request) = EventsAppend.prepare(body: body, expectedVersion: nil) else {
            Issue.record("the body was refused before the journal")
            return (.badRequest("refused"), 0)
        }
        var outcome: EventsAppend.Outcome?
        struct RollBack: Error {}
        do {
            try store.write { transaction in
                var importer = Importer(transaction: transaction)
                outcome = try EventsAppend.apply(request, with: &importer)
                if outcome?.isCommitted != true { throw RollBack() }
            }
        } catch is RollBack {}
        return (try #require(outcome), try store.headPosition())
    }

    @Test(
        "a body of more lines than one prepared chunk is appended whole, in order",
        arguments: [
            EventsAppend.maxCheckedLines + 1, EventsAppend.PreparedChunks.chunkLines,
            EventsAppend.PreparedChunks.chunkLines + 1, 2_500
        ])
    func largeBodyAppendsEveryLine(lines: Int) throws {
        let (outcome, head) = try Self.apply(Self.body(lines: lines))
        guard case let .committed(appended, duplicates, first, last) = outcome else {
            Issue.record("expected a commit, got \(outcome)")
            return
        }
        #expect(appended == lines && duplicates == 0)
        #expect(first == 1 && last == Int64(lines) && head == Int64(lines))
    }

    @Test("a bad line deep in a large body is reported with its own line number and nothing is written")
    func badLineInALaterChunkNamesItsLine() throws {
        let (outcome, head) = try Self.apply(Self.body(lines: 2_500, replacing: (2_100, "{not json")))
        #expect(head == 0)
        guard case let .rejected(report) = outcome else {
            Issue.record("expected a rejection, got \(outcome)")
            return
        }
        // The line itself, then the rest of its transaction, which no longer folds without it.
        #expect(report.kept.first?.line == 2_100)
        #expect(report.kept.allSatisfy { (2_100...2_106).contains($0.line) } && report.count == 7)
    }

    @Test("prepared chunks give every line once, in order, for bodies around the chunk size")
    func chunksCoverTheBodyInOrder() {
        let size = EventsAppend.PreparedChunks.chunkLines
        for count in [0, 1, size - 1, size, size + 1, 3 * size + 7] {
            let lines = (0..<count).map { InputLine(number: $0 + 1, bytes: Array("{}".utf8), problem: nil) }
            let chunks = EventsAppend.PreparedChunks(lines)
            var numbers: [Int] = []
            while let chunk = chunks.next() {
                #expect(chunk.count <= size)
                numbers += chunk.map(\.line.number)
            }
            chunks.finish()
            #expect(numbers == Array(1...max(count, 1)).prefix(count).map { $0 }, "\(count) lines")
        }
    }
}
