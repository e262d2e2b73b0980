/// What the engine needs from one projection: its tables (one set per generation, so a rebuild
/// fills fresh tables while queries keep reading the old ones) and how to apply a batch.
///
/// `apply` runs inside the engine's write transaction, which also moves the checkpoint; a
/// projection writes every row the batch changed before returning, so model and checkpoint
/// always commit together.
protocol ProjectionModel: AnyObject {
    /// The name used on the command line and in `pj_meta`.
    var name: String { get }
    /// The fold's code version: a different stored version rebuilds the projection.
    var version: Int64 { get set }
    /// The tables of one generation (dropped when a newer generation replaces it).
    func tableNames(generation: Int64) -> [String]
    /// Creates the (empty) tables of a generation, without their secondary indexes: a rebuild
    /// bulk-loads them, then ``createIndexes(in:generation:)`` sorts each index once.
    func createTables(in db: ProjectionDatabase, generation: Int64) throws(ProjectionError)
    /// Creates the secondary indexes queries use (when a rebuilt generation is swapped in).
    func createIndexes(in db: ProjectionDatabase, generation: Int64) throws(ProjectionError)
    /// Starts working on a generation: forgets cached state, reloads counters.
    func open(in db: ProjectionDatabase, generation: Int64) throws(ProjectionError)
    /// Folds `events` (positions increasing, all after the checkpoint) and writes what changed;
    /// `names` names the streams the projection has no row for in memory.
    func apply(_ events: ArraySlice<EventView>, names: StreamNaming, in db: ProjectionDatabase) throws(ProjectionError)
    /// Drops cached state (after a failed or concurrent batch: the database is the truth).
    func forgetCache()
}
