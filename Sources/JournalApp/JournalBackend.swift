import EventStore
import JournalCore

/// Where a journal lives, from `--db` / `$JOURNAL_DB`: a `postgres://` or `postgresql://` URL
/// selects PostgreSQL, anything else is a SQLite file path. The only place that decides it.
package enum JournalBackend {
    case sqlite(path: String)
    case postgres(url: String)

    package init(location: String) {
        self = PostgresURL.isPostgres(location) ? .postgres(url: location) : .sqlite(path: location)
    }

    /// How messages name the journal: a printable path, or the URL with its password redacted.
    package var display: String {
        switch self {
        case let .sqlite(path): return TextRendering.printable(path)
        case let .postgres(url): return PostgresURL.redacted(url)
        }
    }

    package var isPostgres: Bool {
        switch self {
        case .sqlite: return false
        case .postgres: return true
        }
    }

    /// Opens the store. Reading: read-only. `create`: a missing journal is created, else it is
    /// `.missing` (never when reading).
    /// `bulk`: a writer of many events that closes when done (a longer WAL between checkpoints).
    func open(
        reading: Bool, create: Bool, clock: @escaping @Sendable () -> Timestamp, busyTimeoutMilliseconds: Int32,
        isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool,
        maxPageCount: Int? = nil, bulk: Bool = false, verifiesReads: Bool = true
    )
        throws(EventStoreError) -> any TransactionalEventStore
    {
        switch self {
        case let .sqlite(path):
            var configuration = Self.sqliteConfiguration(
                clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                isSameContent: isSameContent, maxPageCount: maxPageCount)
            configuration.createIfMissing = create
            configuration.readOnly = reading
            configuration.verifiesReads = verifiesReads
            if bulk { configuration.walAutocheckpointPages = SQLiteEventStore.Configuration.bulkWALAutocheckpointPages }
            return try SQLiteEventStore(path: path, configuration: configuration)
        case let .postgres(url):
            var configuration = PostgresEventStore.Configuration(
                clock: clock, createIfMissing: create, readOnly: reading,
                isSameContent: isSameContent,
                lockTimeoutMilliseconds: Int(busyTimeoutMilliseconds))
            configuration.verifiesReads = verifiesReads
            return try PostgresEventStore(url: url, configuration: configuration)
        }
    }

    /// Where `journal import` writes, as the store chooses for what it finds at the location: a
    /// load of a new SQLite journal when no file is there yet, else the store (PostgreSQL always).
    func openForImport(
        clock: @escaping @Sendable () -> Timestamp, busyTimeoutMilliseconds: Int32,
        isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool, maxPageCount: Int? = nil
    ) throws(EventStoreError) -> ImportTarget {
        try openForBulkWriting(
            clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds, isSameContent: isSameContent,
            maxPageCount: maxPageCount,
            sqlite: { path, configuration throws(EventStoreError) in
                try SQLiteEventStore.openForImport(path: path, configuration: configuration)
            },
            store: { .store($0) })
    }

    /// Where `journal restore` writes: a load of a new SQLite journal (refused when something is
    /// at the path), or a PostgreSQL journal that holds nothing yet (created when missing).
    package func openForRestore(
        clock: @escaping @Sendable () -> Timestamp, busyTimeoutMilliseconds: Int32,
        isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool
    ) throws(EventStoreError) -> ImportTarget {
        switch self {
        case let .sqlite(path):
            return try SQLiteEventStore.openForRestore(
                path: path,
                configuration: Self.bulkSQLiteConfiguration(
                    clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds, isSameContent: isSameContent,
                    maxPageCount: nil))
        case let .postgres(url):
            return try PostgresEventStore.openForRestore(
                url: url,
                configuration: PostgresEventStore.Configuration(
                    clock: clock, createIfMissing: true, readOnly: false, isSameContent: isSameContent,
                    lockTimeoutMilliseconds: Int(busyTimeoutMilliseconds)))
        }
    }

    /// A new SQLite journal written through a store, given its path only when kept
    /// (`NewJournalStore`), when no file is at the location yet; nil for PostgreSQL, `:memory:`
    /// or an existing file (the caller opens the store there).
    func openNewStore(
        clock: @escaping @Sendable () -> Timestamp, busyTimeoutMilliseconds: Int32,
        isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool, maxPageCount: Int? = nil
    ) throws(EventStoreError) -> NewJournalStore? {
        guard case let .sqlite(path) = self else { return nil }
        return try NewJournalStore.ofNewJournal(
            at: path,
            configuration: Self.bulkSQLiteConfiguration(
                clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds, isSameContent: isSameContent,
                maxPageCount: maxPageCount))
    }

    /// Where `journal simulate` appends, as the store chooses for what it finds at the location:
    /// a load of a new SQLite journal when no file is there yet, else the store (PostgreSQL
    /// always, `:memory:`, an existing file).
    func openForBulkAppend(
        clock: @escaping @Sendable () -> Timestamp, busyTimeoutMilliseconds: Int32,
        isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool, maxPageCount: Int? = nil
    ) throws(EventStoreError) -> BulkAppendTarget {
        try openForBulkWriting(
            clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds, isSameContent: isSameContent,
            maxPageCount: maxPageCount,
            sqlite: { path, configuration throws(EventStoreError) in
                try SQLiteEventStore.openForBulkAppend(path: path, configuration: configuration)
            },
            store: { .store($0) })
    }

    /// A bulk writer's target: for SQLite, what `sqlite` makes of the path with the bulk
    /// configuration (the store picks a load or itself); for PostgreSQL, the store opened for
    /// writing, wrapped by `store`.
    private func openForBulkWriting<Target>(
        clock: @escaping @Sendable () -> Timestamp, busyTimeoutMilliseconds: Int32,
        isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool, maxPageCount: Int?,
        sqlite: (String, SQLiteEventStore.Configuration) throws(EventStoreError) -> Target,
        store: (any TransactionalEventStore) -> Target
    ) throws(EventStoreError) -> Target {
        switch self {
        case let .sqlite(path):
            return try sqlite(
                path,
                Self.bulkSQLiteConfiguration(
                    clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds, isSameContent: isSameContent,
                    maxPageCount: maxPageCount))
        case .postgres:
            return store(
                try open(
                    reading: false, create: true, clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                    isSameContent: isSameContent, maxPageCount: maxPageCount, bulk: true))
        }
    }

    /// A bulk writer's configuration: created when missing, a longer WAL between checkpoints.
    private static func bulkSQLiteConfiguration(
        clock: @escaping @Sendable () -> Timestamp, busyTimeoutMilliseconds: Int32,
        isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool,
        maxPageCount: Int?
    ) -> SQLiteEventStore.Configuration {
        var configuration = sqliteConfiguration(
            clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds, isSameContent: isSameContent,
            maxPageCount: maxPageCount)
        configuration.walAutocheckpointPages = SQLiteEventStore.Configuration.bulkWALAutocheckpointPages
        return configuration
    }

    private static func sqliteConfiguration(
        clock: @escaping @Sendable () -> Timestamp, busyTimeoutMilliseconds: Int32,
        isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool,
        maxPageCount: Int?
    ) -> SQLiteEventStore.Configuration {
        SQLiteEventStore.Configuration(
            clock: clock, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
            isSameContent: isSameContent, maxPageCount: maxPageCount)
    }
}
