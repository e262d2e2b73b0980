import EventStore
import JournalCore

/// Opens the journal the way each kind of command needs it (`JournalBackend` picks SQLite or
/// PostgreSQL from the location).
enum JournalAccess {
    /// For commands that only read: read-only, and a missing file is an error (exit 1), never
    /// created.
    static func openForReading(_ context: CommandContext, _ arguments: ParsedArguments) throws
        -> any TransactionalEventStore {
        let backend = JournalBackend(location: context.journalPath(arguments))
        switch open(backend, reading: true, context) {
        case let .success(store):
            return store
        case let .failure(error) where error.code == .missing:
            throw CLIError(.failure, "no journal at \(backend.display)",
                           hint: "pass --db PATH or set JOURNAL_DB; 'journal import FILE' or "
                               + "'journal demo' create one")
        case let .failure(error):
            throw error
        }
    }

    static func open(_ backend: JournalBackend, reading: Bool, bulk: Bool = false, _ context: CommandContext)
        -> Result<any TransactionalEventStore, EventStoreError> {
        do {
            return .success(try backend.open(reading: reading, clock: context.now,
                                             busyTimeoutMilliseconds: busyTimeout(context), isSameContent: sameContent,
                                             maxPageCount: reading ? nil : maxPageCount(context), bulk: bulk))
        } catch {
            return .failure(error)
        }
    }

    /// For commands that write: a missing file is created.
    /// `bulk`: `journal import` and `journal simulate`, which write many events and close.
    static func openForWriting(_ context: CommandContext, _ arguments: ParsedArguments, bulk: Bool = false) throws
        -> any TransactionalEventStore {
        try open(JournalBackend(location: context.journalPath(arguments)), reading: false, bulk: bulk, context).get()
    }

    /// For `journal simulate` into a file that does not exist yet: a load that makes the
    /// journal appear complete or not at all (nil when the journal exists or is PostgreSQL).
    static func startLoad(_ context: CommandContext, _ arguments: ParsedArguments) throws -> SQLiteJournalLoad? {
        try JournalBackend(location: context.journalPath(arguments))
            .startLoad(clock: context.now, busyTimeoutMilliseconds: busyTimeout(context), isSameContent: sameContent,
                       maxPageCount: maxPageCount(context))
    }

    /// How long a writer waits for another process's lock before failing with exit 5:
    /// `$JOURNAL_BUSY_TIMEOUT_MS`, else 10 seconds.
    static func busyTimeout(_ context: CommandContext) -> Int32 {
        context.environment["JOURNAL_BUSY_TIMEOUT_MS"].flatMap { Int32($0) }.map { max(0, $0) } ?? 10_000
    }

    /// A cap on the journal file's size in pages for writers (SQLite's `max_page_count`), from
    /// `$JOURNAL_MAX_PAGE_COUNT`: a write that would grow the file past it fails as if the disk
    /// were full (exit 1, nothing of the transaction written). Unset or not a positive integer:
    /// no cap. It lets tests fill the "disk" in the middle of an import.
    static func maxPageCount(_ context: CommandContext) -> Int? {
        context.environment["JOURNAL_MAX_PAGE_COUNT"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Contract §2's duplicate rule: same stream, type and occurredAt, and data and meta equal
    /// as JSON values (key order and number spelling do not matter; no meta equals `{}`).
    static let sameContent: @Sendable (RecordedEvent, ProposedEvent) -> Bool = { stored, proposed in
        guard stored.type == proposed.type, stored.occurredAt == proposed.occurredAt else { return false }
        if stored.data == proposed.data && stored.meta == proposed.meta { return true }
        let parser = JSONParser()
        func object(_ bytes: [UInt8]?) -> JSONValue? {
            guard let bytes else { return .object(JSONObject()) }
            return try? parser.parse(bytes)
        }
        guard let storedData = object(stored.data), let proposedData = object(proposed.data),
              let storedMeta = object(stored.meta), let proposedMeta = object(proposed.meta) else { return false }
        return storedData.isEquivalent(to: proposedData) && storedMeta.isEquivalent(to: proposedMeta)
    }
}
