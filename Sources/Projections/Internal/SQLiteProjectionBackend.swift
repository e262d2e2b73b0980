import EventStore
import JournalCore

/// The read models in the journal's SQLite file, over the store's public SQLite wrapper
/// (`SQLiteConnection`, the package's one place that calls sqlite3).
///
/// WAL lets queries read a snapshot while one writer (`BEGIN IMMEDIATE`) applies a batch. The
/// read models can always be rebuilt from the log, so commits use `synchronous=NORMAL` (no
/// fsync per batch).
final class SQLiteProjectionBackend: ProjectionBackend {
    private var connection: SQLiteConnection?
    private let path: String

    init(path: String, create: Bool) throws(ProjectionError) {
        self.path = path
        do {
            connection = try SQLiteConnection(
                path: path,
                options: .init(
                    create: create, busyTimeoutMilliseconds: 10_000,
                    walMode: true, synchronous: 1))
            // This connection's commits copy the WAL into the file only past 100,000 pages: a
            // rebuild's batches rewrite the same pages (stream rows, totals, the tables' last
            // pages), which are then copied once, not once per batch; every run that applied
            // events empties the WAL when it ends (`settleLog`). Pages the read models free are
            // left as they are, not overwritten with zeros (the system's SQLite is built with
            // `SECURE_DELETE`): their rows are derived from the log, which keeps every event, and
            // zeroing the old generation's pages when a rebuild drops it wrote each one again.
            try connection?.execute(
                """
                PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536; PRAGMA wal_autocheckpoint=100000;
                PRAGMA secure_delete=OFF
                """)
        } catch {
            connection?.close()
            let place = path.isEmpty ? "a temporary database" : path
            throw ProjectionError(error, "cannot open the read models in \(place)")
        }
    }

    func close() {
        connection?.close()
        connection = nil
    }

    private var db: SQLiteConnection {
        guard let connection else { preconditionFailure("ProjectionDatabase used after close") }
        return connection
    }

    func execute(_ sql: String) throws(ProjectionError) {
        do { try db.execute(sql) } catch { throw ProjectionError(error, "read models") }
    }

    func statement(_ sql: String) throws(ProjectionError) -> Statement {
        do { return Statement(try db.cached(sql)) } catch { throw ProjectionError(error, "read models") }
    }

    func beginWrite() throws(ProjectionError) { try execute("BEGIN IMMEDIATE") }

    func beginRead() throws(ProjectionError) { try execute("BEGIN DEFERRED") }

    func commit() throws(ProjectionError) { try execute("COMMIT") }

    func rollback() { connection?.rollback() }

    /// `PRAGMA wal_checkpoint(PASSIVE)` on a second connection, on another thread: it copies
    /// the frames committed so far into the file while this connection goes on writing (a
    /// passive checkpoint takes no lock a writer needs). The engine starts it when a run's last
    /// batch is written, so that the final `wal_checkpoint(TRUNCATE)`, which runs alone at the
    /// end of a rebuild, has only that batch's frames left to copy (BENCHMARKS.md, "Rebuild
    /// path"). Best effort, as that final one: a failure leaves the work to it.
    func checkpointAside() -> BackgroundTask<Void>? {
        let path = self.path
        // `:memory:` and "" (a temporary database) are private to this connection.
        guard path != ":memory:", !path.isEmpty else { return nil }
        return BackgroundTask {
            let options = SQLiteConnection.Options(
                create: false, busyTimeoutMilliseconds: 0, walMode: false, synchronous: 1)
            guard let checkpointer = try? SQLiteConnection(path: path, options: options) else { return }
            try? checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            checkpointer.close()
        }
    }

    func tableExists(_ name: String) throws(ProjectionError) -> Bool {
        let st = try statement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
        st.bind(1, name)
        defer { st.reset() }
        return try st.step()
    }
}
