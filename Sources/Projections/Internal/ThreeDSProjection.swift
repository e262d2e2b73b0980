/// The `3ds` read model: one row per `3ds` stream (updated in place, so a stream's final
/// outcome is always current) and one fact row per counted event, indexed by kind and occurredAt.
///
/// Tables of generation G:
/// - `pj_3ds_stream_gG(sid PK, name (unique index), created_t, ds, mv, ares, started_t, outcome, ended_t,
///   requests, submits, last_ui)`; covering indexes from `created_t` (the funnel's columns) and
///   from `ended_t` (those of challenges and latency).
/// - `pj_3ds_fact_gG(kind, t, sid, a, b)`; covering index `(kind, t, a, b, sid)`.
/// - the all-time totals (``TotalsTables``, prefix `pj_3ds`).
final class ThreeDSProjection: ProjectionModel {
    let name = "3ds"
    /// 2: covering fact index. 3: totals folded by structured keys, stream rows upserted.
    /// 4: covering indexes on created_t and ended_t for windowed funnel, challenges and latency.
    var version: Int64 = 4
    private var generation: Int64 = 0
    private var nextSID: Int64 = 1
    /// True when the generation's stream table was empty at `open`: then a stream not in
    /// `sids` cannot be stored yet, and its lookup is skipped (most of a rebuild's streams).
    private var startedEmpty = false
    /// The sid of every stream this engine wrote or loaded in the generation, by the reader's
    /// key: an evicted row is reloaded by its integer primary key, not by name.
    private var sids: [Int64: Int64] = [:]
    /// A rebuild fills its tables without secondary indexes (``createIndexes`` builds them in one
    /// sort when it swaps in); looking a stream up by name needs the name index, made on demand.
    private var nameIndexReady = false
    /// Rows by the reader's stream key.
    private var cache: [Int64: ThreeDSStreamRow] = [:]
    private let cacheLimit = 200_000

    static func streamTable(_ g: Int64) -> String { "pj_3ds_stream_g\(g)" }
    static func factTable(_ g: Int64) -> String { "pj_3ds_fact_g\(g)" }

    static let totals = TotalsTables(prefix: "pj_3ds")

    func tableNames(generation g: Int64) -> [String] { [Self.streamTable(g), Self.factTable(g)] + Self.totals.names(g) }

    func createTables(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g), f = Self.factTable(g)
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(s)(sid INTEGER PRIMARY KEY, name TEXT NOT NULL, created_t INTEGER,
              ds TEXT, mv TEXT, ares TEXT, started_t INTEGER, outcome INTEGER NOT NULL, ended_t INTEGER,
              requests INTEGER NOT NULL, submits INTEGER NOT NULL, last_ui TEXT);
            CREATE TABLE IF NOT EXISTS \(f)(kind INTEGER NOT NULL, t INTEGER NOT NULL, sid INTEGER NOT NULL,
              a TEXT NOT NULL, b TEXT NOT NULL);
            """)
        try Self.totals.create(in: db, generation: g)
    }

    func createIndexes(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g), f = Self.factTable(g)
        try createNameIndex(in: db, generation: g)
        try db.execute("""
            CREATE INDEX IF NOT EXISTS \(s)_created ON \(s)(created_t, ds, mv, ares, started_t, outcome);
            CREATE INDEX IF NOT EXISTS \(s)_ended ON \(s)(ended_t, started_t, last_ui, outcome, requests, ds);
            CREATE INDEX IF NOT EXISTS \(f)_kt ON \(f)(kind, t, a, b, sid);
            """)
    }

    func open(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        generation = g
        cache.removeAll()
        sids.removeAll()
        let maxSID = try db.scalarInt("SELECT max(sid) FROM \(Self.streamTable(g))")
        startedEmpty = maxSID == nil
        nextSID = (maxSID ?? 0) + 1
        nameIndexReady = false
    }

    private func createNameIndex(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        try db.execute("CREATE UNIQUE INDEX IF NOT EXISTS \(s)_name ON \(s)(name)")
    }

    func forgetCache() {
        cache.removeAll()
        sids.removeAll()
        startedEmpty = false
        nextSID = 0  // reloaded by `open` before the next batch
    }

    func apply(_ events: ArraySlice<EventView>, names: StreamNaming, in db: ProjectionDatabase) throws(ProjectionError) {
        if nextSID == 0 { try open(in: db, generation: generation) }
        let s = Self.streamTable(generation)
        // The caches move into locals for the loop (no exclusivity check per access) and back.
        var cache = self.cache, sids = self.sids
        self.cache = [:]
        self.sids = [:]
        defer {
            self.cache = cache
            self.sids = sids
        }
        /// This batch's rows, in the order first met, and where each stream's row is.
        var rows: [ThreeDSStreamRow] = []
        var keys: [Int64] = []
        var touched: [Int64: Int] = [:]
        var facts: [ThreeDSFact] = []
        var totals = TotalsDelta()
        for event in events where event.category == .threeDS {
            if let index = touched[event.stream] {
                ThreeDSFold.applyCountingEvents(event, to: &rows[index], facts: &facts, totals: &totals)
                continue
            }
            var row: ThreeDSStreamRow
            if let cached = cache.removeValue(forKey: event.stream) {
                row = cached
            } else if let sid = sids[event.stream] {
                guard let stored = try load(sid: sid, db: db) else {
                    throw ProjectionError(.database, "3ds read model: stream row \(sid) is missing")
                }
                row = stored
            } else {
                let name = try names.name(of: event.stream)
                if !startedEmpty && !nameIndexReady {
                    try createNameIndex(in: db, generation: generation)
                    nameIndexReady = true
                }
                if !startedEmpty, let stored = try load(name, db: db) {
                    row = stored
                } else {
                    row = ThreeDSStreamRow(sid: nextSID, name: name)
                    nextSID += 1
                }
                sids[event.stream] = row.sid
            }
            // The stream's contribution to the totals is taken out here and put back, as it
            // stands after the batch, below: one move per stream and batch, not per event.
            ThreeDSFold.contribute(row, sign: -1, to: &totals)
            ThreeDSFold.applyCountingEvents(event, to: &row, facts: &facts, totals: &totals)
            touched[event.stream] = rows.count
            rows.append(row)
            keys.append(event.stream)
        }
        for row in rows { ThreeDSFold.contribute(row, sign: 1, to: &totals) }
        let write = try db.statement("""
            INSERT INTO \(s)(sid, name, created_t, ds, mv, ares, started_t, outcome, ended_t, requests,
              submits, last_ui) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)
            ON CONFLICT(sid) DO UPDATE SET created_t = excluded.created_t, ds = excluded.ds, mv = excluded.mv,
              ares = excluded.ares, started_t = excluded.started_t, outcome = excluded.outcome,
              ended_t = excluded.ended_t, requests = excluded.requests, submits = excluded.submits,
              last_ui = excluded.last_ui
            """)
        // In sid order: new rows append to the table's B-tree.
        var order = Array(rows.indices)
        order.sort { rows[$0].sid < rows[$1].sid }
        for index in order {
            let row = rows[index]
            write.reset()
            write.bind(1, row.sid)
            write.bind(2, row.name)
            write.bind(3, row.createdAt)
            write.bind(4, row.directoryServer)
            write.bind(5, row.messageVersion)
            write.bind(6, row.aresStatus)
            write.bind(7, row.challengeStartedAt)
            write.bind(8, row.outcome.rawValue)
            write.bind(9, row.endedAt)
            write.bind(10, row.requests)
            write.bind(11, row.submitTexts)
            write.bind(12, row.lastUiType)
            try write.run()
        }
        let insert = try db.statement("INSERT INTO \(Self.factTable(generation))(kind, t, sid, a, b) VALUES(?,?,?,?,?)")
        for fact in facts {
            insert.reset()
            insert.bind(1, fact.kind.rawValue)
            insert.bind(2, fact.occurredAt)
            insert.bind(3, fact.sid)
            insert.bind(4, fact.a)
            insert.bind(5, fact.b)
            try insert.run()
        }
        try Self.totals.flush(totals, in: db, generation: generation)
        if cache.count + rows.count > cacheLimit { cache.removeAll(keepingCapacity: true) }
        for (index, row) in rows.enumerated() { cache[keys[index]] = row }
    }

    private func load(_ name: String, db: ProjectionDatabase) throws(ProjectionError) -> ThreeDSStreamRow? {
        try load("name = ?", db: db) { $0.bind(1, name) }
    }

    private func load(sid: Int64, db: ProjectionDatabase) throws(ProjectionError) -> ThreeDSStreamRow? {
        try load("sid = ?", db: db) { $0.bind(1, sid) }
    }

    private func load(_ condition: String, db: ProjectionDatabase,
                      bind: (Statement) -> Void) throws(ProjectionError) -> ThreeDSStreamRow? {
        let st = try db.statement("""
            SELECT sid, name, created_t, ds, mv, ares, started_t, outcome, ended_t, requests, submits, last_ui
            FROM \(Self.streamTable(generation)) WHERE \(condition)
            """)
        bind(st)
        defer { st.reset() }  // a statement left on a row would lock its table
        guard try st.step() else { return nil }
        var row = ThreeDSStreamRow(sid: st.int(0), name: st.text(1))
        row.createdAt = st.optionalInt(2)
        row.directoryServer = st.optionalText(3)
        row.messageVersion = st.optionalText(4)
        row.aresStatus = st.optionalText(5)
        row.challengeStartedAt = st.optionalInt(6)
        row.outcome = ThreeDSOutcome(rawValue: st.int(7)) ?? .open
        row.endedAt = st.optionalInt(8)
        row.requests = st.int(9)
        row.submitTexts = st.int(10)
        row.lastUiType = st.optionalText(11)
        return row
    }
}
