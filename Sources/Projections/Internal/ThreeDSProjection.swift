/// The `3ds` read model: one row per `3ds` stream (updated in place, so a stream's final
/// outcome is always current) and one fact row per counted event, indexed by kind and occurredAt.
///
/// Tables of generation G:
/// - `pj_3ds_stream_gG(sid PK, name UNIQUE, created_t, ds, mv, ares, started_t, outcome, ended_t,
///   requests, submits, last_ui)`; indexes on `created_t`, `ended_t`.
/// - `pj_3ds_fact_gG(kind, t, sid, a, b)`; covering index `(kind, t, a, b, sid)`.
/// - the all-time totals (``TotalsTables``, prefix `pj_3ds`).
final class ThreeDSProjection: ProjectionModel {
    let name = "3ds"
    /// 2: covering fact index. 3: totals folded by structured keys, stream rows upserted.
    var version: Int64 = 3
    private var generation: Int64 = 0
    private var nextSID: Int64 = 1
    /// True when the generation's stream table was empty at `open`: then a stream not in
    /// `written` cannot be stored yet, and its lookup is skipped (most of a rebuild's streams).
    private var startedEmpty = false
    private var written: Set<Int64> = []
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
            CREATE TABLE IF NOT EXISTS \(s)(sid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_t INTEGER,
              ds TEXT, mv TEXT, ares TEXT, started_t INTEGER, outcome INTEGER NOT NULL, ended_t INTEGER,
              requests INTEGER NOT NULL, submits INTEGER NOT NULL, last_ui TEXT);
            CREATE INDEX IF NOT EXISTS \(s)_created ON \(s)(created_t);
            CREATE INDEX IF NOT EXISTS \(s)_ended ON \(s)(ended_t);
            CREATE TABLE IF NOT EXISTS \(f)(kind INTEGER NOT NULL, t INTEGER NOT NULL, sid INTEGER NOT NULL,
              a TEXT NOT NULL, b TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS \(f)_kt ON \(f)(kind, t, a, b, sid);
            """)
        try Self.totals.create(in: db, generation: g)
    }

    func open(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        generation = g
        cache.removeAll()
        written.removeAll()
        let maxSID = try db.scalarInt("SELECT max(sid) FROM \(Self.streamTable(g))")
        startedEmpty = maxSID == nil
        nextSID = (maxSID ?? 0) + 1
    }

    func forgetCache() {
        cache.removeAll()
        written.removeAll()
        startedEmpty = false
        nextSID = 0  // reloaded by `open` before the next batch
    }

    func apply(_ events: ArraySlice<EventView>, reader: EventReader, in db: ProjectionDatabase) throws(ProjectionError) {
        if nextSID == 0 { try open(in: db, generation: generation) }
        let s = Self.streamTable(generation)
        var touched: [Int64: ThreeDSStreamRow] = [:]
        var facts: [ThreeDSFact] = []
        var totals = TotalsDelta()
        for event in events where event.category == .threeDS {
            var row: ThreeDSStreamRow
            if let known = touched[event.stream] ?? cache[event.stream] {
                row = known
            } else {
                let name = try reader.name(of: event.stream)
                if !(startedEmpty && !written.contains(event.stream)), let stored = try load(name, db: db) {
                    row = stored
                } else {
                    row = ThreeDSStreamRow(sid: nextSID, name: name)
                    nextSID += 1
                }
            }
            ThreeDSFold.apply(event, to: &row, facts: &facts, totals: &totals)
            touched[event.stream] = row
        }
        let write = try db.statement("""
            INSERT INTO \(s)(sid, name, created_t, ds, mv, ares, started_t, outcome, ended_t, requests,
              submits, last_ui) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)
            ON CONFLICT(sid) DO UPDATE SET created_t = excluded.created_t, ds = excluded.ds, mv = excluded.mv,
              ares = excluded.ares, started_t = excluded.started_t, outcome = excluded.outcome,
              ended_t = excluded.ended_t, requests = excluded.requests, submits = excluded.submits,
              last_ui = excluded.last_ui
            """)
        for row in touched.values {
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
        if cache.count + touched.count > cacheLimit { cache.removeAll() }
        cache.merge(touched) { $1 }
        if startedEmpty { written.formUnion(touched.keys) }
    }

    private func load(_ name: String, db: ProjectionDatabase) throws(ProjectionError) -> ThreeDSStreamRow? {
        let st = try db.statement("""
            SELECT sid, created_t, ds, mv, ares, started_t, outcome, ended_t, requests, submits, last_ui
            FROM \(Self.streamTable(generation)) WHERE name = ?
            """)
        st.bind(1, name)
        defer { st.reset() }  // a statement left on a row would lock its table
        guard try st.step() else { return nil }
        var row = ThreeDSStreamRow(sid: st.int(0), name: name)
        row.createdAt = st.optionalInt(1)
        row.directoryServer = st.optionalText(2)
        row.messageVersion = st.optionalText(3)
        row.aresStatus = st.optionalText(4)
        row.challengeStartedAt = st.optionalInt(5)
        row.outcome = ThreeDSOutcome(rawValue: st.int(6)) ?? .open
        row.endedAt = st.optionalInt(7)
        row.requests = st.int(8)
        row.submitTexts = st.int(9)
        row.lastUiType = st.optionalText(10)
        return row
    }
}
