import CSQLite
import JournalCore

/// Builds a new SQLite journal in one go from events that are all new (a simulation): the
/// journal appears at its path complete, or not at all.
///
/// ```swift
/// let load = try SQLiteJournalLoad(path: "bench.db")   // throws if bench.db exists
/// try load.append(batch)                                 // as often as needed
/// try load.finish()                                      // bench.db appears, complete
/// ```
///
/// The events go into a new file beside the destination (`<path>.loading-XXXXXX`) through an
/// ordinary `SQLiteEventStore`: the same rules, streams, expected versions, hash chain and
/// compression, so the journal holds the same rows as one appended to the usual way. Two things
/// differ, because nobody else can see that file:
/// - **no WAL**: a rollback journal in memory (for the savepoints) and no fsync per commit, so
///   each page is written once instead of twice;
/// - **no stream name or `(stream_id, version)` index while loading**: the writer knows every
///   stream it created and each one's last version (`NewJournalStreams`), and `finish()` builds
///   both indexes in one sorted pass each;
/// - **no id index while loading**: each committed transaction's ids are sorted into a run
///   (`LoadEventIDs`), and `finish()` merges the runs into `journal_event_ids`, whose primary key
///   refuses an id that occurs twice. An ordinary append looks each id up as it goes (that
///   lookup, and copying the index as the log grows, made most of the cost that grows with a
///   journal's size); here every id must be new, and a repeat fails the load, where an
///   ordinary append would take it as an idempotent retry.
///
/// Batches can be prepared on the thread that produces them (`makePreparer()`,
/// `append(_: PreparedLoadBatch)`): the rules, ids, chain link bodies and compression are then
/// done there, and the writer only finds streams, numbers, hashes and writes rows. A
/// `BatchPipeline` does that for every load it is given.
///
/// `finish()` then puts the file in WAL mode, syncs it, and gives it the destination's name
/// only if nothing has that name yet (another process may have created a journal there
/// meanwhile). When anything fails, or the load is dropped without `finish()`, the loading file
/// is removed and the destination is untouched; SIGINT or SIGTERM remove it too (exit 130 or
/// 143), and after a SIGKILL the next opener of the destination does (`NewJournalFile`).
package final class SQLiteJournalLoad: BatchLoadWriting {
    /// Where the journal appears when the load finishes.
    package var path: String { file.path }
    /// The file being written.
    package var loadingPath: String { file.loadingPath }
    /// The loading file: removed when the load fails, is dropped or is interrupted (SIGINT,
    /// SIGTERM), and after a SIGKILL by the next opener of `path` (`NewJournalFile`).
    private let file: NewJournalFile
    private var store: SQLiteEventStore?

    /// Starts a load for a journal at `path`, which must not exist.
    ///
    /// `configuration` is used for the loading file except for durability (no fsync until
    /// `finish()`) and for creation (always created).
    /// - Throws: `.invalidInput` when `path` exists, or a `-wal` or `-journal` file of an
    ///   earlier database of that name does, `.io` when the loading file cannot be
    ///   created, the store's errors when it cannot be opened.
    package init(path: String, configuration: SQLiteEventStore.Configuration = .init()) throws(EventStoreError) {
        file = try NewJournalFile(path: path)
        var loading = configuration
        loading.buildsNewJournal = true
        loading.synchronous = .off
        loading.createIfMissing = true
        loading.readOnly = false
        // A load writes the file front to back and reads it once, in `finish()`, to sort the
        // indexes: mapped pages would only add the file's size (up to the map's) to the resident
        // memory a load is bounded by (docs/new-journal-load.md).
        loading.mmapSizeBytes = 0
        // Rows go to the ends of their tables (no index is kept while loading), so a load's
        // writes touch few pages: a small page cache is enough, and the load's memory stays bounded.
        loading.cacheSizeKiB = min(loading.cacheSizeKiB, Self.loadCacheKiB)
        do {
            store = try SQLiteEventStore(path: file.loadingPath, configuration: loading)
        } catch {
            file.abandon()
            throw error
        }
    }

    deinit { abandon() }

    /// Whether `path` names a file that does not exist yet (not `:memory:`), where a load can start.
    package static func canStart(at path: String) -> Bool { NewJournalFile.canStart(at: path) }

    /// Appends to several streams in one transaction of the loading file: all or nothing (a
    /// refused batch writes nothing, and the load goes on). The same checks as
    /// `SQLiteEventStore.append`, except for event ids, which `finish()` checks.
    @discardableResult
    package func append(_ batch: [StreamAppend]) throws(EventStoreError) -> [AppendResult] {
        guard let store else { throw Self.over(path) }
        return try store.append(batch)
    }

    /// The load's bulk writer: batches prepared on the thread that makes them.
    package func preparedLoadWriter() throws(EventStoreError) -> PreparedLoadWriter? {
        try PreparedLoadWriter(load: self)
    }

    /// A preparer for this load's batches, to use on the thread that makes them: the load's
    /// writer then only finds streams, numbers, hashes and writes the rows (`append(_:)` with a
    /// `PreparedLoadBatch`). One per producing thread (`PreparedLoadWriter`).
    package func makePreparer() throws(EventStoreError) -> LoadPreparer {
        guard let store else { throw Self.over(path) }
        return try store.withWriter { writer throws(EventStoreError) in
            // A load's writer always has one (`SQLiteJournal` makes it for a new journal).
            guard let published = writer.publishedDictionary else {
                preconditionFailure("a journal load without its published dictionary")
            }
            return try LoadPreparer(
                maxPayloadBytes: store.configuration.maxPayloadBytes, published: published,
                head: try writer.head())
        }
    }

    /// Appends a batch made by this load's `makePreparer()`: the same rows and errors as its
    /// appends given to `append(_ batch: [StreamAppend])`, in one transaction, all or nothing.
    /// Returns the number of events written.
    @discardableResult
    package func append(_ batch: PreparedLoadBatch) throws(EventStoreError) -> Int {
        guard let store else { throw Self.over(path) }
        return try store.withWriter { writer throws(EventStoreError) in try writer.appendPrepared(batch) }
    }

    /// Chain hashes the writer took from the preparers so far (for tests).
    var hashesTakenAhead: Int { store?.withWriter { $0.hashesTakenAhead } ?? 0 }

    /// Builds the id index, makes the file a WAL-mode journal, syncs it and names it `path`.
    /// Returns the number of events. After it returns or throws, the load is over.
    /// - Throws: `.duplicateIDConflict` naming an id that occurs twice; `.conflict` when a file
    ///   appeared at `path` meanwhile; `.invalidInput` when a `-wal` or `-journal` file did;
    ///   `.io`, `.full`: in every case nothing is at `path`, except for an `.io` that says the
    ///   journal is there but its folder could not be synced.
    @discardableResult
    package func finish() throws(EventStoreError) -> Int64 {
        guard let store else { throw Self.over(path) }
        defer { abandon() }
        let head = try store.headPosition()
        try buildIndexes(store)
        self.store = nil // closes its connections: the last one removes the (empty) WAL
        try file.keep()
        return head
    }

    /// Ends the load without a journal: closes and removes the loading file. Idempotent.
    package func abandon() {
        store = nil
        file.abandon()
    }

    /// One sorted pass over the streams builds their name index, one over the log the stream
    /// version index; the id index is filled from the load's sorted runs of ids (`LoadEventIDs`),
    /// or by a sorted pass over the log when it has none (its primary key refuses a repeated id);
    /// then the file switches to WAL mode like every journal. Synchronous from here on.
    private func buildIndexes(_ store: SQLiteEventStore) throws(EventStoreError) {
        do {
            try store.withWriter { writer in
                let sql = writer.sql
                try sql.execute("PRAGMA synchronous = FULL")
                // SQLite's sorter spills runs the size of the page cache, and runs of 8 MiB sort
                // faster here than runs of the load's 64 MiB. The generator is done by now, so the
                // sorter may use helper threads on the other cores (BENCHMARKS.md, "Load path").
                try sql.execute("PRAGMA cache_size = -\(Self.sortCacheKiB)")
                try sql.execute("PRAGMA threads = \(Self.sortThreads)")
                try sql.begin(.immediate)
                do {
                    for index in SQLiteEventStore.loadIndexSchemas { try sql.execute(index) }
                    if let ids = writer.loadIDs, ids.canMerge {
                        try Self.insertIDs(ids, into: sql)
                    } else {
                        try sql.execute(
                            """
                            INSERT INTO journal_event_ids(id, position) SELECT event_id, position FROM \
                            journal_events ORDER BY event_id;
                            """)
                    }
                    try sql.execute(
                        """
                        UPDATE journal_id_index SET through = (SELECT position FROM journal_head WHERE singleton = 1)
                            WHERE singleton = 1;
                        """)
                    try sql.commit()
                } catch {
                    sql.rollback()
                    throw error
                }
                try sql.execute("PRAGMA journal_mode = WAL")
            }
        } catch let error as SQLiteError where error.resultCode == SQLITE_CONSTRAINT {
            throw repeatedID(store) ?? EventStoreError(sqlite: error, doing: "building the indexes of \(loadingPath)")
        } catch let error as SQLiteError {
            throw EventStoreError(sqlite: error, doing: "building the indexes of \(loadingPath)")
        } catch {
            throw EventStoreError(code: .io, message: "building the indexes of \(loadingPath): \(error)")
        }
    }

    /// The error naming the first id stored twice, with its stream and first position.
    private func repeatedID(_ store: SQLiteEventStore) -> EventStoreError? {
        let positions: (first: Int64, second: Int64)?
        do {
            positions = try store.withConnection { sql -> (Int64, Int64)? in
                let statement = try sql.cached(
                    """
                    SELECT min(position), max(position) FROM journal_events GROUP BY event_id HAVING count(*) > 1
                    ORDER BY min(position) LIMIT 1
                    """)
                defer { statement.reset() }
                return try statement.step() ? (statement.int64(at: 0), statement.int64(at: 1)) : nil
            }
        } catch {
            return nil
        }
        guard let positions, let first = try? store.readAll(from: positions.first, limit: 1).first,
            let second = try? store.readAll(from: positions.second, limit: 1).first
        else { return nil }
        return EventStoreError(
            code: .duplicateIDConflict,
            message: "event id \(first.id) occurs twice in the load (at positions \(first.position) in "
                + "\(first.stream) and \(second.position) in \(second.stream)): a journal load takes "
                + "only new events, and nothing was written at \(path)",
            stream: second.stream.rawValue, position: first.position, eventID: first.id)
    }

    /// Rows per `INSERT` when the id index is filled from the load's runs: fewer statement steps
    /// per row than smaller statements (BENCHMARKS.md, "Load path").
    static let idRowsPerInsert = 256

    /// Fills `journal_event_ids` in id order from the load's runs, `idRowsPerInsert` rows per statement.
    private static func insertIDs(_ ids: LoadEventIDs, into sql: SQLiteConnection) throws {
        let values = Array(repeating: "(?, ?)", count: idRowsPerInsert).joined(separator: ", ")
        let many = try sql.prepare("INSERT INTO journal_event_ids(id, position) VALUES \(values)")
        let one = try sql.prepare("INSERT INTO journal_event_ids(id, position) VALUES (?, ?)")
        // The ids gathered for the next statement, as their stored big-endian bytes, bound in place.
        var words = [UInt64](repeating: 0, count: 2 * idRowsPerInsert)
        var positions = [Int64](repeating: 0, count: idRowsPerInsert)
        var count = 0
        func write() throws(SQLiteError) {
            try words.withBytes { (bytes) throws(SQLiteError) in
                try MultiRowInsert.run(count: count, width: idRowsPerInsert, columns: 2, many: { many }, one: { one }) {
                    statement, row, at in
                    statement.bind(
                        noCopyBlob: UnsafeRawBufferPointer(rebasing: bytes[(16 * row)..<(16 * row + 16)]), at: at + 1)
                    statement.bind(positions[row], at: at + 2)
                }
            }
            count = 0
        }
        var merge = try ids.merged()
        while let entry = try merge.next() {
            words[2 * count] = entry.high.bigEndian
            words[2 * count + 1] = entry.low.bigEndian
            positions[count] = entry.position
            count += 1
            if count == idRowsPerInsert { try write() }
        }
        try write()
    }

    /// The page cache while the load writes its rows, in KiB.
    static let loadCacheKiB = 16 * 1024
    /// The page cache while `finish()` sorts the indexes, in KiB.
    static let sortCacheKiB = 8 * 1024
    /// The helper threads SQLite's sorter may use in `finish()`.
    static let sortThreads = 2

    static func over(_ path: String) -> EventStoreError {
        EventStoreError(code: .invalidInput, message: "the journal load of \(path) is over (finished or abandoned)")
    }
}

extension SQLiteEventStore {
    /// Where a bulk append (`journal simulate`) writes at `path`: a load (`.load`,
    /// `SQLiteJournalLoad`) when no file is there yet and the configuration may create one, else
    /// the store (`.store`).
    package static func openForBulkAppend(path: String, configuration: Configuration) throws(EventStoreError)
        -> BulkAppendTarget
    {
        if let load = try SQLiteJournalLoad.ofNewJournal(at: path, configuration: configuration) { return .load(load) }
        return .store(try SQLiteEventStore(path: path, configuration: configuration))
    }
}

extension SQLiteJournalLoad {
    /// A load of the journal at `path` when a bulk writer finds none there and the configuration
    /// may create one (the store's choice for `openForBulkAppend` and `openForImport`); nil when
    /// the writer must open the store instead.
    static func ofNewJournal(at path: String, configuration: SQLiteEventStore.Configuration)
        throws(EventStoreError) -> SQLiteJournalLoad?
    {
        guard configuration.createIfMissing, !configuration.readOnly, canStart(at: path) else { return nil }
        return try SQLiteJournalLoad(path: path, configuration: configuration)
    }
}
