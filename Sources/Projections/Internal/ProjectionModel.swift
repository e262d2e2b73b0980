/// What the engine needs from one projection: its tables (one set per generation, so a rebuild
/// fills fresh tables while queries keep reading the old ones) and how to apply a batch.
///
/// A batch is applied in two steps: ``fold(_:names:db:)`` runs the fold in memory and turns
/// its result into the rows to write (on another thread when the engine folds the next batch
/// while the current one is written), then the returned ``PendingWrite`` writes them inside the
/// engine's write transaction, which also moves the checkpoint, so model and checkpoint always
/// commit together.
protocol ProjectionModel: AnyObject {
    /// The name used on the command line and in `pj_meta`.
    var name: String { get }
    /// The fold's code version: a different stored version rebuilds the projection.
    var version: Int64 { get set }
    /// The tables of one generation (dropped when a newer generation replaces it).
    func tableNames(generation: Int64) -> [String]
    /// Creates the (empty) tables of a generation, without their secondary indexes.
    func createTables(in db: ProjectionDatabase, generation: Int64) throws(ProjectionError)
    /// Creates the secondary indexes queries use (`IF NOT EXISTS`): on SQLite with the empty
    /// tables of a rebuild (each batch's writes keep them); on PostgreSQL when the rebuilt
    /// generation is swapped in (one sort each).
    func createIndexes(in db: ProjectionDatabase, generation: Int64) throws(ProjectionError)
    /// Creates the secondary indexes made only when a rebuilt generation is swapped in, on
    /// both engines (one sort each; keys that would land on random pages while rebuilding).
    func createIndexesAtSwap(in db: ProjectionDatabase, generation: Int64) throws(ProjectionError)
    /// Starts working on a generation: forgets cached state, reloads counters.
    func open(in db: ProjectionDatabase, generation: Int64) throws(ProjectionError)
    /// Folds `events` (positions increasing, all after the checkpoint) in memory and returns
    /// what to write; `names` names the streams the projection has no row for in memory.
    ///
    /// With `db` nil (folding ahead, on another thread, while the engine writes the previous
    /// batch on `db`), the fold must not touch the database: when a stream's row would have to
    /// be read from it, it returns nil **without changing any state**, and the engine folds
    /// the batch again with `db` once the previous batch is committed.
    func fold(
        _ events: ArraySlice<EventView>, names: StreamNaming,
        db: ProjectionDatabase?
    ) throws(ProjectionError) -> PendingWrite?
    /// Drops cached state (after a failed or concurrent batch: the database is the truth).
    func forgetCache()
}

/// The rows a fold leaves to write: written once, on the engine's thread, inside the batch's
/// transaction. Holds values only (the fold's state may move on meanwhile).
protocol BatchWrite {
    func write(in db: ProjectionDatabase) throws(ProjectionError)
}

/// A fold's ``BatchWrite``, handed from the fold-ahead thread to the engine's (as part of the
/// `sending` result of its `BackgroundTask`: no `Sendable` conformance needed).
struct PendingWrite {
    private let rows: any BatchWrite

    init(_ rows: any BatchWrite) { self.rows = rows }

    func write(_ db: ProjectionDatabase) throws(ProjectionError) { try rows.write(in: db) }
}

extension ProjectionModel {
    func createIndexesAtSwap(in db: ProjectionDatabase, generation: Int64) throws(ProjectionError) {}

    /// The database of a fold that may read it (a fold ahead returned nil before getting here).
    static func needed(_ db: ProjectionDatabase?) throws(ProjectionError) -> ProjectionDatabase {
        guard let db else { throw ProjectionError(.database, "read models: a fold ahead tried to read the database") }
        return db
    }
}
