import EventStore
import Foundation
import JournalCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a conformance test may ask of a backend's configuration, whatever the backend.
struct StoreOptions: Sendable {
    var clock: @Sendable () -> Timestamp = FixedClock.epoch
    var maxPayloadBytes: Int = 1 << 20
    var isSameContent: (@Sendable (RecordedEvent, ProposedEvent) -> Bool)?
    /// Compress after this many events (0: never). Backends without compression ignore it.
    var dictionaryTrainingEvents: Int64 = 0
}

/// A store under test, plus the backend's way to change its storage behind its back.
struct Harness {
    let store: any TransactionalEventStore
    let tamper: any Tampering
}

/// One backend of the conformance suite: the same test bodies run against each.
struct Backend: Sendable, CustomTestStringConvertible {
    let name: String
    let open: @Sendable (StoreOptions) throws -> Harness

    var testDescription: String { name }

    static let sqliteInMemory = Backend(name: "SQLite :memory:") { options in
        let store = try SQLiteEventStore(path: ":memory:", configuration: options.sqlite)
        return Harness(store: store, tamper: SQLiteTampering(store: store))
    }

    static let sqliteOnDisk = Backend(name: "SQLite file") { options in
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("journal.db"), configuration: options.sqlite)
        return Harness(store: store, tamper: SQLiteTampering(store: store))
    }

    /// A file whose writer copies event ids into the id index every second event, so that
    /// every test sees ids in the index, in the writer's memory of the tail and in the open
    /// transaction at once; and looks ids up through a filter of the index from the first
    /// lookup on, a filter with room for 4 ids (outgrown and rebuilt all the time).
    static let sqliteEagerIDIndex = Backend(name: "SQLite file, id index every 2 events") { options in
        var configuration = options.sqlite
        configuration.idIndex = IDIndexPolicy(minimum: 2, maximum: 2, filterMinimumProbes: 1, filterMinimumCapacity: 4)
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("journal.db"), configuration: configuration)
        return Harness(store: store, tamper: SQLiteTampering(store: store))
    }

    /// Every backend the conformance suite runs against.
    static let all: [Backend] = [.sqliteInMemory, .sqliteOnDisk, .sqliteEagerIDIndex] + postgresIfAvailable
}

extension StoreOptions {
    var sqlite: SQLiteEventStore.Configuration {
        var configuration = SQLiteEventStore.Configuration(
            clock: clock, maxPayloadBytes: maxPayloadBytes,
            dictionaryTrainingEvents: dictionaryTrainingEvents)
        configuration.synchronous = .normal
        if let isSameContent { configuration.isSameContent = isSameContent }
        return configuration
    }
}

/// A clock that always says the same thing (tests that need time to move pass their own).
enum FixedClock {
    static let instant = Timestamp("2026-11-29T10:00:00.000Z")!
    static let epoch: @Sendable () -> Timestamp = { instant }
}

/// A fresh directory for one test, inside one folder per test process that is removed when the
/// process exits (tests drop the value while their store still uses the files).
struct TemporaryDirectory {
    let path: String

    static func make() -> TemporaryDirectory {
        TemporaryDirectory(path: makeDirectory(template: root + "/XXXXXX"))
    }

    private static let root: String = {
        let root = makeDirectory(template: "/tmp/eventstore-tests-XXXXXX")
        rootForExit = root
        atexit { if let root = TemporaryDirectory.rootForExit { try? FileManager.default.removeItem(atPath: root) } }
        return root
    }()

    nonisolated(unsafe) private static var rootForExit: String?

    private static func makeDirectory(template: String) -> String {
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        return bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    func file(_ name: String) -> String { path + "/" + name }
}
