import EventStore
import JournalCore

/// Opens the journal the way each kind of command needs it (`JournalBackend` picks SQLite or
/// PostgreSQL from the location).
package enum JournalAccess {
    /// For commands that only read: read-only, and a missing file is an error (exit 1), never
    /// created.
    /// `verifiesReads: false` only for `audit`, which checks and marks each event itself instead
    /// of stopping at the first that does not check.
    /// Every reader first checks that no events are gone from the log's end (exit 4,
    /// `EventStore.checkForCuts()`), except `verify` (`checksCuts: false`), which checks all of it.
    package static func openForReading(
        _ context: CommandContext, _ arguments: ParsedArguments, verifiesReads: Bool = true, checksCuts: Bool = true
    ) throws -> any TransactionalEventStore {
        let backend = JournalBackend(location: context.journalPath(arguments))
        try checkLocation(backend, writing: false)
        let store = try existing(backend, open(backend, reading: true, verifiesReads: verifiesReads, context))
        if checksCuts { try store.checkForCuts() }
        return store
    }

    /// The store, or exit 1 naming the location when there is no journal there.
    private static func existing(
        _ backend: JournalBackend, _ opened: Result<any TransactionalEventStore, EventStoreError>
    )
        throws -> any TransactionalEventStore
    {
        switch opened {
        case let .success(store):
            return store
        case let .failure(error) where error.code == .missing:
            throw CLIError(
                .failure, "no journal at \(backend.display)",
                hint: "pass --db PATH or set JOURNAL_DB; 'journal import FILE' or "
                    + "'journal demo' create one")
        case let .failure(error):
            throw error
        }
    }

    /// `create`: whether a missing journal is created (default: when writing).
    package static func open(
        _ backend: JournalBackend, reading: Bool, create: Bool? = nil, bulk: Bool = false,
        verifiesReads: Bool = true, _ context: CommandContext
    )
        -> Result<any TransactionalEventStore, EventStoreError>
    {
        do {
            return .success(
                try backend.open(
                    reading: reading, create: create ?? !reading, clock: context.now,
                    busyTimeoutMilliseconds: busyTimeout(context), isSameContent: sameContent,
                    maxPageCount: reading ? nil : maxPageCount(context), bulk: bulk,
                    verifiesReads: verifiesReads))
        } catch {
            return .failure(error)
        }
    }

    /// For commands that write: a missing file is created.
    /// `bulk`: `journal import` and `journal simulate`, which write many events and close.
    package static func openForWriting(_ context: CommandContext, _ arguments: ParsedArguments, bulk: Bool = false)
        throws
        -> any TransactionalEventStore
    {
        let backend = JournalBackend(location: context.journalPath(arguments))
        try checkLocation(backend, writing: true)
        return try open(backend, reading: false, bulk: bulk, context).get()
    }

    /// For `journal serve`: for writing (a missing file is created), except an existing SQLite
    /// journal that is read-only (`isReadOnly`: an auditor's copy), which is served for
    /// reading: its read routes answer, appends are refused.
    package static func openForServing(_ context: CommandContext, _ arguments: ParsedArguments) throws
        -> any TransactionalEventStore
    {
        if case let .sqlite(path) = JournalBackend(location: context.journalPath(arguments)),
            FileSystem.entry(at: path) == .file, isReadOnly(path)
        {
            return try openForReading(context, arguments)
        }
        return try openForWriting(context, arguments)
    }

    /// For commands that add to an existing journal without appending events (a checkpoint): a
    /// missing journal is an error, as for readers.
    package static func openExistingForWriting(_ context: CommandContext, _ arguments: ParsedArguments) throws
        -> any TransactionalEventStore
    {
        let backend = JournalBackend(location: context.journalPath(arguments))
        try checkLocation(backend, writing: true)
        return try existing(backend, open(backend, reading: false, create: false, context))
    }

    /// True when the SQLite journal at `path` is read-only: this user may not write the file or
    /// its folder (permissions, a read-only mount), or the file has no write permission bit at
    /// all (a copy made read-only, which even root's commands then leave as it is).
    package static func isReadOnly(_ path: String) -> Bool {
        guard FileSystem.isWritable(path) && FileSystem.isWritable(FileSystem.directory(of: path)) else { return true }
        guard let status = try? FileStatus.of(path) else { return false }
        return status.permissions & 0o222 == 0
    }

    /// Says what is wrong with a SQLite `--db` path in the user's terms before SQLite reports
    /// "unable to open database file" or "disk I/O error": a folder given as the journal, a
    /// folder that does not exist, a folder this user may not write.
    package static func checkLocation(_ backend: JournalBackend, writing: Bool) throws(CLIError) {
        guard case let .sqlite(path) = backend, path != ":memory:", !path.isEmpty else { return }
        let shown = backend.display
        let folder = FileSystem.directory(of: path)
        let dbHint = "pass --db PATH (or set JOURNAL_DB) to a journal file"
        switch FileSystem.entry(at: path) {
        case .file:
            if writing && !(FileSystem.isWritable(path) && FileSystem.isWritable(folder)) {
                throw CLIError(
                    .failure,
                    "cannot write the journal \(shown): it is read-only for this user "
                        + "(the file or its folder \(TextRendering.printable(folder)))",
                    hint: "commands that only read (verify, audit, export, query) work on it; "
                        + "to write, copy it somewhere writable")
            }
            return
        case .folder:
            throw CLIError(
                .failure, "\(shown) is a folder, not a journal file",
                hint: "pass a file inside it, e.g. --db \(TextRendering.printable(path + "/journal.db"))")
        case .other:
            throw CLIError(.failure, "\(shown) is not a regular file", hint: dbHint)
        case let .unreachable(errorNumber):
            throw CLIError(
                .failure, "cannot reach \(shown): \(FileSystem.describe(errorNumber: errorNumber))",
                hint: dbHint)
        case .missing:
            switch FileSystem.entry(at: folder) {
            case .folder:
                guard writing, !FileSystem.isWritable(folder) else { return }
                throw CLIError(
                    .failure,
                    "cannot create a journal in \(TextRendering.printable(folder)): "
                        + "the folder is not writable for this user",
                    hint: "choose a folder you may write, with --db PATH")
            case .missing:
                throw CLIError(
                    .failure,
                    "cannot \(writing ? "create" : "find") the journal \(shown): "
                        + "the folder \(TextRendering.printable(folder)) does not exist",
                    hint: writing
                        ? "create the folder first (mkdir -p \(TextRendering.printable(folder))) "
                            + "or choose another --db PATH" : "check the path; " + dbHint)
            case .file, .other:
                throw CLIError(
                    .failure, "cannot use \(shown): \(TextRendering.printable(folder)) is not a folder", hint: dbHint)
            case let .unreachable(errorNumber):
                throw CLIError(
                    .failure,
                    "cannot reach the folder \(TextRendering.printable(folder)) of \(shown): "
                        + FileSystem.describe(errorNumber: errorNumber), hint: dbHint)
            }
        }
    }

    /// For `journal import`: a load of a new journal when the store finds none at the location
    /// (`ImportTarget.load`), else the store opened for writing, created when missing.
    package static func openForImport(_ context: CommandContext, _ arguments: ParsedArguments) throws -> ImportTarget {
        let backend = JournalBackend(location: context.journalPath(arguments))
        try checkLocation(backend, writing: true)
        return try backend.openForImport(
            clock: context.now, busyTimeoutMilliseconds: busyTimeout(context), isSameContent: sameContent,
            maxPageCount: maxPageCount(context))
    }

    /// For `journal import` through a store: a new SQLite journal that appears at the location
    /// only when kept (`NewJournalStore`) when none is there yet, else nil (open the journal
    /// with `openForWriting`).
    package static func openNewForWriting(_ context: CommandContext, _ arguments: ParsedArguments) throws
        -> NewJournalStore?
    {
        let backend = JournalBackend(location: context.journalPath(arguments))
        try checkLocation(backend, writing: true)
        return try backend.openNewStore(
            clock: context.now, busyTimeoutMilliseconds: busyTimeout(context), isSameContent: sameContent,
            maxPageCount: maxPageCount(context))
    }

    /// For `journal simulate`: a load of a new journal when the store finds none at the location
    /// (`BulkAppendTarget.load`), else the store opened for writing, created when missing.
    package static func openForBulkAppend(_ context: CommandContext, _ arguments: ParsedArguments) throws
        -> BulkAppendTarget
    {
        let backend = JournalBackend(location: context.journalPath(arguments))
        try checkLocation(backend, writing: true)
        return try backend.openForBulkAppend(
            clock: context.now, busyTimeoutMilliseconds: busyTimeout(context), isSameContent: sameContent,
            maxPageCount: maxPageCount(context))
    }

    /// How long a writer waits for another process's lock before failing with exit 5:
    /// `$JOURNAL_BUSY_TIMEOUT_MS`, else 10 seconds.
    package static func busyTimeout(_ context: CommandContext) -> Int32 {
        context.environment["JOURNAL_BUSY_TIMEOUT_MS"].flatMap { Int32($0) }.map { max(0, $0) } ?? 10_000
    }

    /// A cap on the journal file's size in pages for writers (SQLite's `max_page_count`), from
    /// `$JOURNAL_MAX_PAGE_COUNT`: a write that would grow the file past it fails as if the disk
    /// were full (exit 1, nothing of the transaction written). Unset or not a positive integer:
    /// no cap. It lets tests fill the "disk" in the middle of an import.
    static func maxPageCount(_ context: CommandContext) -> Int? {
        context.environment["JOURNAL_MAX_PAGE_COUNT"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Spec §2's duplicate rule: same stream, type and occurredAt, and data and meta equal
    /// as JSON values (key order and number spelling do not matter; no meta equals `{}`).
    package static let sameContent: @Sendable (RecordedEvent, ProposedEvent) -> Bool = { stored, proposed in
        guard stored.type == proposed.type, stored.occurredAt == proposed.occurredAt else { return false }
        if stored.data == proposed.data && stored.meta == proposed.meta { return true }
        let parser = JSONParser()
        func object(_ bytes: [UInt8]?) -> JSONValue? {
            guard let bytes else { return .object(JSONObject()) }
            return try? parser.parse(bytes)
        }
        guard let storedData = object(stored.data), let proposedData = object(proposed.data),
            let storedMeta = object(stored.meta), let proposedMeta = object(proposed.meta)
        else { return false }
        return storedData.isEquivalent(to: proposedData) && storedMeta.isEquivalent(to: proposedMeta)
    }
}
