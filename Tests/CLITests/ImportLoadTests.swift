import EventStore
import Foundation
import JournalCore
import Testing

@testable import JournalApp

/// `journal import` into a journal that does not exist yet goes through a load of the new
/// journal (`ImportTarget.load`); it must leave the same journal, and say the same things, as
/// the store's write transaction.
@Suite("import into a new journal's load")
struct ImportLoadTests {
    /// A clock that always says the same, so two imports store the same `recordedAt`.
    static let configuration: SQLiteEventStore.Configuration = {
        var configuration = SQLiteEventStore.Configuration(clock: {
            Timestamp(millisecondsSinceEpoch: 1_796_300_000_000)
        })
        // Trained early, so the load's batches after the first are compressed by the preparer.
        configuration.dictionaryTrainingEvents = 500
        return configuration
    }()

    static func lines(_ texts: [String]) -> [InputLine] {
        texts.enumerated().map { InputLine(number: $0.offset + 1, bytes: Array($0.element.utf8)) }
    }

    /// Every event of the journal at `path`, its chain head and its tree head.
    static func contents(_ path: String) throws -> (events: [RecordedEvent], head: Int64, tree: TreeHead) {
        let store = try SQLiteEventStore(path: path, configuration: configuration)
        return (try store.readAll(from: 1, limit: 1_000_000), try store.headPosition(), try store.treeHead())
    }

    @Test("a load's import leaves the rows, chain and tree root of the store's write transaction")
    func aLoadsImportLeavesTheSameJournalAsTheStoresTransaction() throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let input = Self.lines(legal.events(atLeast: 3_000))

        let viaStore = runner.path("store.db")
        let store = try SQLiteEventStore(path: viaStore, configuration: Self.configuration)
        var outcomes: [Importer.Outcome] = []
        try store.write { transaction in
            var importer = Importer(transaction: transaction)
            for line in input { outcomes.append(try importer.importLine(line)) }
        }
        #expect(outcomes.allSatisfy { $0 == .appended })

        let viaLoad = runner.path("load.db")
        guard
            case let .load(load) = try SQLiteEventStore.openForImport(
                path: viaLoad, configuration: Self.configuration, batchEvents: 700)
        else {
            Issue.record("a journal that does not exist should be loaded")
            return
        }
        var importer = Importer(load: load)
        for line in input { #expect(try importer.importLine(line) == .appended) }
        #expect(!FileManager.default.fileExists(atPath: viaLoad))
        #expect(try load.finish() == Int64(input.count))

        let expected = try Self.contents(viaStore)
        let loaded = try Self.contents(viaLoad)
        #expect(loaded.events.count == input.count)
        #expect(loaded.events == expected.events)
        #expect(loaded.head == expected.head)
        #expect(loaded.tree == expected.tree)
        let report = try SQLiteEventStore(path: viaLoad, configuration: Self.configuration).verify()
        #expect(report.events == Int64(input.count))
    }

    @Test("a stream that comes back after the load's cache dropped it is refused, for the store to fold")
    func aStreamThatComesBackAfterTheLoadsCacheDroppedItIsRefused() throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let journeys = [legal.challenged(1), legal.yellowOTP(2), legal.challenged(3), legal.green(4)]
        var input: [String] = []
        for index in 0..<(journeys.map(\.count).max() ?? 0) {
            for journey in journeys where index < journey.count { input.append(journey[index]) }
        }
        guard
            case let .load(load) = try SQLiteEventStore.openForImport(
                path: runner.path("new.db"), configuration: Self.configuration)
        else {
            Issue.record("a journal that does not exist should be loaded")
            return
        }
        defer { load.abandon() }
        var importer = Importer(load: load, cacheCapacity: 2)
        var outcomes: [Importer.Outcome] = []
        for line in Self.lines(input) {
            let outcome = try importer.importLine(line)
            outcomes.append(outcome)
            if case .rejected = outcome { break }
        }
        #expect(importer.cacheEvictions > 0)
        guard case let .rejected(rejection)? = outcomes.last else {
            Issue.record("a dropped stream's next event should be refused")
            return
        }
        #expect(rejection.rule == Importer.droppedStreamRule)
        #expect(outcomes.dropLast().allSatisfy { $0 == .appended })
    }

    @Test("the store chooses a load only where no journal exists")
    func theStoreChoosesALoadOnlyWhereNoJournalExists() throws {
        let runner = try JournalRunner()
        let empty = runner.path("empty.db")
        _ = try SQLiteEventStore(path: empty, configuration: Self.configuration)
        guard case .store = try SQLiteEventStore.openForImport(path: empty, configuration: Self.configuration) else {
            Issue.record("an existing journal, even an empty one, is appended to in a write transaction")
            return
        }
        let held = runner.path("held.db")
        var legal = LegalEvents()
        let store = try SQLiteEventStore(path: held, configuration: Self.configuration)
        try store.write { transaction in
            var importer = Importer(transaction: transaction)
            for line in Self.lines(legal.green(1)) { _ = try importer.importLine(line) }
        }
        guard case .store = try SQLiteEventStore.openForImport(path: held, configuration: Self.configuration) else {
            Issue.record("a journal that holds events is appended to in a write transaction")
            return
        }
        guard
            case let .load(load) = try SQLiteEventStore.openForImport(
                path: runner.path("new.db"), configuration: Self.configuration)
        else {
            Issue.record("a journal that does not exist should be loaded")
            return
        }
        load.abandon()
        #expect(!runner.exists("new.db"))
    }

    /// Runs the same import twice, into a new journal (a load) and into an empty journal that
    /// exists (the store's write transaction), and expects the same output, status and export.
    func expectSameImport(_ lines: [String], arguments: [String] = []) throws -> JournalRunner.Result {
        let runner = try JournalRunner()
        let input = try runner.ndjson("in.ndjson", lines)
        let existing = runner.path("existing.db")
        #expect(try runner.run(["import", "/dev/null", "--db", existing], db: false).status == 0)
        #expect(runner.exists("existing.db"))
        let viaStore = try runner.run(["import", input, "--db", existing] + arguments, db: false)
        let viaLoad = try runner.run(["import", input] + arguments)
        #expect(viaLoad.status == viaStore.status)
        #expect(viaLoad.stdout == viaStore.stdout)
        #expect(viaLoad.stderr == viaStore.stderr)
        func withoutStamps(_ objects: [[String: Any]]) -> [String] {
            objects.map { object in
                var object = object
                object["recordedAt"] = nil
                object["hash"] = nil
                return String(
                    decoding: try! JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
            }
        }
        let expected = withoutStamps(try runner.exportedObjects(["--db", existing], db: false))
        if expected.isEmpty && viaLoad.status != 0 {
            // Nothing kept, into a path where no journal was: no file there (spec §9).
            #expect(!runner.exists("journal.db"))
        } else {
            #expect(withoutStamps(try runner.exportedObjects()) == expected)
            #expect(try runner.run(["verify"]).status == 0)
        }
        return viaLoad
    }

    @Test("import --sign into a new journal signs the loaded journal's tree")
    func importSignIntoANewJournalSignsTheLoadedTree() throws {
        let runner = try JournalRunner()
        let key = runner.path("j.key")
        #expect(try runner.run(["keygen", "j.example/log", "--out", key], db: false).status == 0)
        var legal = LegalEvents()
        let lines = legal.events(atLeast: 300)
        let imported = try runner.run(["import", try runner.ndjson("in.ndjson", lines), "--sign", key])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdoutLines.last?.hasPrefix("signed checkpoint: ") == true)
        let list = try runner.run(["checkpoint", "--list", "--format", "json"])
        let kept = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["checkpoints"]
        let checkpoints = kept as? [[String: Any]]
        #expect(checkpoints?.count == 1)
        #expect(checkpoints?.first?["size"] as? Int == lines.count)
    }

    @Test("an import into a new journal appends what an import into an empty one does")
    func anImportIntoANewJournalAppendsWhatOneIntoAnEmptyJournalDoes() throws {
        var legal = LegalEvents()
        let result = try expectSameImport(legal.events(atLeast: 400))
        #expect(result.status == 0)
    }

    @Test("an id used twice with other content in a new journal's import fails as in the store, writing nothing")
    func anIDUsedTwiceWithOtherContentFailsAsInTheStoreWritingNothing() throws {
        var legal = LegalEvents()
        var lines = legal.events(atLeast: 400)
        // The first line's id again, as the first event of another stream: every state rule
        // passes, only the id index can tell.
        let first = lines[0]
        let other = first.replacingOccurrences(of: LegalEvents.threeDSStream(1), with: LegalEvents.threeDSStream(999))
        #expect(other != first)
        lines.append(other)
        let result = try expectSameImport(lines)
        #expect(result.status == 3)
        #expect(result.stderr.contains("is already used by another event (position 1,"))
        #expect(result.stderr.contains(": stream differs"))
        #expect(result.stdout.hasPrefix("nothing written:"))
    }

    @Test("a line repeated in a new journal's import is a duplicate, as in the store")
    func aLineRepeatedInANewJournalsImportIsADuplicate() throws {
        var legal = LegalEvents()
        var lines = legal.events(atLeast: 400)
        lines.append(lines[2])
        let result = try expectSameImport(lines, arguments: ["--format", "json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""duplicates":1"#))
    }

    @Test("invalid lines in a new journal's import are reported and set aside as in the store")
    func invalidLinesInANewJournalsImportAreReportedAsInTheStore() throws {
        var legal = LegalEvents()
        var lines = legal.events(atLeast: 400)
        lines.insert("{not json", at: 200)
        lines.append(lines[5])
        _ = try expectSameImport(lines)
        let withRejects = try expectSameImport(lines, arguments: ["--rejects", "rejects.ndjson"])
        #expect(withRejects.status == 3)
    }
}
