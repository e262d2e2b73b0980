/// A read model that keeps one row per stream in a `StreamRowDirectory` backed by a stream table
/// per generation (`3ds`, `card`, `streams`): how its directory is opened on a generation, capped
/// and forgotten, and its name index made, in one place.
protocol StreamDirectoryModel: ProjectionModel {
    associatedtype Row: StreamRow
    /// The table generation the directory reads and writes.
    var generation: Int64 { get set }
    var directory: StreamRowDirectory<Row> { get set }
    /// The stream table of generation `g`.
    static func streamTable(_ g: Int64) -> String
    /// The columns ``row(from:)`` reads, in its order.
    static var loadColumns: String { get }
    /// The row a statement selecting ``loadColumns`` stands on.
    static func row(from statement: Statement) throws(ProjectionError) -> Row
}

extension StreamDirectoryModel {
    func open(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        generation = g
        directory.open(maxSID: try db.scalarInt("SELECT max(sid) FROM \(Self.streamTable(g))"))
    }

    /// On a hash of the name: sorting 64-bit integers, not 40-byte random texts, when a rebuild
    /// swaps in; a lookup checks the name too.
    func createNameIndex(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        try db.execute("CREATE INDEX IF NOT EXISTS \(s)_name ON \(s)(nh)")
    }

    /// Keeps at most about `limit` stream rows in memory (tests of eviction and reloading).
    func limitCache(to limit: Int) { directory.cacheLimit = limit }

    func forgetCache() {
        directory.forget() // reloaded by `open` before the next batch
    }

    /// Opens the directory before a batch when it was forgotten; false when that needs the
    /// database and there is none (the fold runs ahead of the database, and must wait).
    func openIfNeeded(_ db: ProjectionDatabase?) throws(ProjectionError) -> Bool {
        guard directory.needsOpen else { return true }
        guard let db else { return false }
        try open(in: db, generation: generation)
        return true
    }

    /// The stored row of the stream `name` (nil when there is none).
    func load(_ name: String, db: ProjectionDatabase) throws(ProjectionError) -> Row? {
        try load(StreamNameHash.lookup(db.sql), db: db) { StreamNameHash.bindLookup(name, to: $0) }
    }

    /// The stored row `sid` (nil when there is none).
    func load(sid: Int64, db: ProjectionDatabase) throws(ProjectionError) -> Row? {
        try load("sid = \(db.sql.p(1))", db: db) { $0.bind(1, sid) }
    }

    private func load(
        _ condition: String, db: ProjectionDatabase,
        bind: (Statement) -> Void
    ) throws(ProjectionError) -> Row? {
        let st = try db.statement(
            "SELECT \(Self.loadColumns) FROM \(Self.streamTable(generation)) WHERE \(condition)")
        bind(st)
        defer { st.reset() } // a statement left on a row would lock its table
        guard try st.step() else { return nil }
        return try Self.row(from: st)
    }
}
