import EventStore
import JournalCore
import Testing

@testable import JournalApp

/// `journal export` of the log over the borrowing scan: the lines `readAll` pages give, page for
/// page, whatever the page size and however the stream names are read, and nothing of a page
/// whose events do not all check.
@Suite("journal export over the borrowing scan")
struct LogExportTests {
    /// About 130 legal events over many streams, meta on some (the importer's), ids packed.
    func journal() throws -> (JournalRunner, SQLiteEventStore) {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.events(atLeast: 130))
        return (runner, try SQLiteEventStore(path: runner.database))
    }

    /// The lines `readAll` gives from `position` on, each with its line feed.
    func expectedLines(_ store: SQLiteEventStore, from position: Int64) throws -> [UInt8] {
        var out: [UInt8] = []
        for event in try store.readAll(from: position, limit: .max) {
            event.exportLine(into: &out)
            out.append(0x0A)
        }
        return out
    }

    func export(
        _ store: SQLiteEventStore, from position: Int64 = 0, page: Int, namePage: Int = LogExport.namePage
    ) throws -> [[UInt8]] {
        var pages: [[UInt8]] = []
        var export = LogExport(store: store, pageSize: page, namePage: namePage)
        try export.run(from: position) { pages.append($0) }
        return pages
    }

    @Test("every page size and name page gives the lines readAll gives, a page of lines per write")
    func pagesChangeNothing() throws {
        let (_, store) = try journal()
        let head = try store.headPosition()
        #expect(head >= 130)
        for page in [1, 7, 64, 1000] {
            for namePage in [1, 3, LogExport.namePage] {
                for from: Int64 in [0, 1, 50, head, head + 1] {
                    let pages = try export(store, from: from, page: page, namePage: namePage)
                    #expect(
                        Array(pages.joined()) == (try expectedLines(store, from: from)), "page \(page) from \(from)")
                    let lines = pages.map { $0.filter { $0 == 0x0A }.count }
                    #expect(lines.dropLast().allSatisfy { $0 == page } && (lines.last ?? 1) <= page)
                }
            }
        }
    }

    @Test("a tampered event prints the pages before its own and nothing of its page, naming its position")
    func tamperedEventStopsAtItsPage() throws {
        let (_, store) = try journal()
        try LogReplayTests.shiftOccurredAt(of: 40, in: store)
        for page in [1, 7, 16] {
            var pages: [[UInt8]] = []
            var export = LogExport(store: store, pageSize: page, namePage: 5)
            do {
                try export.run(from: 0) { pages.append($0) }
                Issue.record("page \(page): a tampered event was exported")
            } catch let error as EventStoreError {
                #expect(error.code == .integrity, "page \(page)")
                #expect(error.message.contains("position 40"), "page \(page): \(error)")
            }
            // Whole pages, every one before the one holding position 40.
            #expect(pages.joined().filter { $0 == 0x0A }.count == 39 / page * page, "page \(page)")
        }
    }
}
