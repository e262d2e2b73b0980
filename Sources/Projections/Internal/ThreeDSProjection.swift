import Domain

/// The `3ds` read model: one row per `3ds` stream (updated in place, so a stream's final
/// outcome is always current) and one fact row per counted event, indexed by kind and occurredAt.
///
/// Tables of generation G:
/// - `pj_3ds_stream_gG(sid PK, name, nh (its hash, indexed), created_t, ds, mv, ares, started_t, outcome, ended_t,
///   requests, submits, last_ui, sub_first_t, sub_last_t)`; covering indexes from `created_t` (the funnel's
///   columns) and from `ended_t` (those of challenges and latency).
/// - `pj_3ds_fact_gG(kind, t, sid, a, b, seq)`, `WITHOUT ROWID`, keyed `(kind, t, a, b, sid, seq)`.
/// - the all-time totals (``TotalsTables``, prefix `pj_3ds`).
final class ThreeDSProjection: StreamDirectoryModel {
    let name = "3ds"
    /// 2: covering fact index. 3: totals folded by structured keys, stream rows upserted.
    /// 4: covering indexes on created_t and ended_t for windowed funnel, challenges and latency.
    /// 5: counters and challenge durations per time bucket (minute, 10 minutes, hour, day).
    /// 6: earliest and latest submitText per stream; `otptx` placed at the earliest.
    /// 7: submission times per stream and the long-span table (`otp` windows).
    /// 8: duration lists per 10 minutes too.
    /// 9: the stream-name index is on a 64-bit hash of the name (`nh`), not on the text.
    /// 10: a store's stream id is the row's sid (no name index at the swap); `ended` partial;
    ///     facts clustered on `(kind, t, a, b, sid, seq)` (no fact index); no histogram over all
    ///     directory servers (summed from theirs at query time).
    /// 11: the histogram over all directory servers is stored again (the sum at query time was
    ///     too slow for the query-time goal on large journals).
    var version: Int64 = 11
    var generation: Int64 = 0
    var directory = StreamRowDirectory<ThreeDSStreamRow>()

    static func streamTable(_ g: Int64) -> String { "pj_3ds_stream_g\(g)" }
    static func factTable(_ g: Int64) -> String { "pj_3ds_fact_g\(g)" }

    static let totals = TotalsTables(prefix: "pj_3ds")
    static let longSpans = LongSpanTable(prefix: "pj_3ds")

    func tableNames(generation g: Int64) -> [String] {
        [Self.streamTable(g), Self.factTable(g)] + Self.totals.names(g) + [Self.longSpans.name(g)]
    }

    func createTables(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        let f = Self.factTable(g)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(s)(sid INTEGER PRIMARY KEY, name TEXT NOT NULL, nh \
            INTEGER NOT NULL, created_t INTEGER,
              ds TEXT, mv TEXT, ares TEXT, started_t INTEGER, outcome INTEGER NOT NULL, ended_t INTEGER,
              requests INTEGER NOT NULL, submits INTEGER NOT NULL, last_ui TEXT, sub_first_t INTEGER, \
            sub_last_t INTEGER, sub_times TEXT);
            CREATE TABLE IF NOT EXISTS \(f)(kind INTEGER NOT NULL, t INTEGER NOT NULL, sid INTEGER NOT NULL,
              a TEXT NOT NULL, b TEXT NOT NULL, seq INTEGER NOT NULL,
              PRIMARY KEY(kind, t, a, b, sid, seq)) WITHOUT ROWID;
            """)
        try Self.totals.create(in: db, generation: g)
        try Self.longSpans.create(in: db, generation: g)
    }

    func createIndexes(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        // The fact table is clustered on its query order (no index). No name index: a store's stream
        // id is the row's sid; the index is made on demand by the first fold that looks a stream up
        // by name (a source without stream ids).
        // `ended` holds the challenged transactions only: both of its queries (challenges,
        // latency) ask for `started_t IS NOT NULL` (a third of the rows).
        try db.execute(
            """
            CREATE INDEX IF NOT EXISTS \(s)_created ON \(s)(created_t, ds, mv, ares, started_t, outcome);
            CREATE INDEX IF NOT EXISTS \(s)_ended ON \(s)(ended_t, started_t, last_ui, outcome, requests, ds)
              WHERE started_t IS NOT NULL;
            """)
    }

    func fold(
        _ events: ArraySlice<EventView>, names: StreamNaming,
        db: ProjectionDatabase?
    ) throws(ProjectionError) -> PendingWrite? {
        guard try openIfNeeded(db) else { return nil }
        if db == nil && !self.directory.holdsRows(of: events, category: .threeDS) { return nil }
        // The directory moves into a local for the loop (no exclusivity check per access) and back.
        var directory = StreamRowDirectory<ThreeDSStreamRow>(cacheLimit: 0)
        swap(&directory, &self.directory)
        defer { swap(&directory, &self.directory) }
        let generation = self.generation
        let (ordered, facts, seqs, totals) = try directory.fold(
            events, with: ThreeDSFold.self, names: names,
            loadSID: { sid throws(ProjectionError) in try load(sid: sid, db: Self.needed(db)) },
            loadName: { name throws(ProjectionError) in try load(name, db: Self.needed(db)) },
            createNameIndex: { () throws(ProjectionError) in
                try createNameIndex(in: Self.needed(db), generation: generation)
            },
            model: "3ds")
        let order = FactOrder.sorted(
            count: facts.count, kind: { facts[$0].kind.rawValue },
            time: { facts[$0].occurredAt }, seqs: seqs)
        // Every text the write binds, in one buffer (bound without a copy).
        var texts = TextArena(capacity: ordered.count * 24 + facts.count * 12)
        let rowTexts = ordered.map { row in
            RowTexts(
                name: texts.add(row.name), directoryServer: texts.add(row.directoryServer),
                messageVersion: texts.add(row.messageVersion), aresStatus: texts.add(row.aresStatus),
                lastUiType: texts.add(row.lastUiType),
                subTimes: texts.add(row.submitTimes.isEmpty ? nil : SortedValues.encode(row.submitTimes)))
        }
        let sortedFacts = order.map {
            (fact: facts[$0], seq: seqs[$0], a: texts.add(facts[$0].a), b: texts.add(facts[$0].b))
        }
        let prepared = TotalsTables.prepare(totals)
        let longSpans = LongSpanTable.rows(ordered.lazy.map { ($0.sid, $0.submitTimes) })
        return PendingWrite(
            Rows(
                rows: ordered, rowTexts: rowTexts, facts: sortedFacts, texts: texts, totals: prepared,
                longSpans: longSpans, generation: generation))
    }

    /// Where a stream row's texts are in its batch's ``TextArena``.
    private struct RowTexts {
        let name, directoryServer, messageVersion, aresStatus, lastUiType, subTimes: TextArena.Span
    }

    private typealias SortedFact = (fact: ThreeDSFact, seq: Int64, a: TextArena.Span, b: TextArena.Span)

    /// A batch's rows, written in the batch's transaction.
    private struct Rows: BatchWrite {
        let rows: [ThreeDSStreamRow]
        let rowTexts: [RowTexts]
        let facts: [SortedFact]
        let texts: TextArena
        let totals: TotalsTables.Prepared
        let longSpans: [(sid: Int64, first: Int64, last: Int64, times: String)]
        let generation: Int64

        func write(in db: ProjectionDatabase) throws(ProjectionError) {
            try texts.withBytes { (bytes) throws(ProjectionError) in
                try ThreeDSProjection.write(rows, rowTexts, facts: facts, texts: bytes, in: db, generation: generation)
            }
            try ThreeDSProjection.totals.write(totals, in: db, generation: generation)
            try ThreeDSProjection.longSpans.keep(longSpans, in: db, generation: generation)
        }
    }

    private static func write(
        _ rows: [ThreeDSStreamRow], _ rowTexts: [RowTexts], facts: [SortedFact],
        texts: TextArena.Bytes, in db: ProjectionDatabase, generation: Int64
    ) throws(ProjectionError) {
        let upsert = RowInserter(
            db,
            """
            INSERT INTO \(streamTable(generation))(sid, name, nh, created_t, ds, mv, ares, \
            started_t, outcome, ended_t, requests,
              submits, last_ui, sub_first_t, sub_last_t, sub_times)
            """, columns: 16,
            tail: """
                ON CONFLICT(sid) DO UPDATE SET created_t = excluded.created_t, ds = excluded.ds, mv = excluded.mv,
                  ares = excluded.ares, started_t = excluded.started_t, outcome = excluded.outcome,
                  ended_t = excluded.ended_t, requests = excluded.requests, submits = excluded.submits,
                  last_ui = excluded.last_ui, sub_first_t = excluded.sub_first_t, sub_last_t = excluded.sub_last_t,
                  sub_times = excluded.sub_times
                """)
        // Fields read in place (no copy of each row, and of its strings' references).
        try rows.withUnsafeBufferPointer { (rows) throws(ProjectionError) in
            try rowTexts.withUnsafeBufferPointer { (spans) throws(ProjectionError) in
                try upsert.insert(count: rows.count) { write, index, at in
                    write.bind(at + 1, rows[index].sid)
                    write.bind(at + 2, spans[index].name, in: texts)
                    write.bind(at + 3, StreamNameHash.stored(rows[index].name))
                    write.bind(at + 4, rows[index].createdAt)
                    write.bind(at + 5, spans[index].directoryServer, in: texts)
                    write.bind(at + 6, spans[index].messageVersion, in: texts)
                    write.bind(at + 7, spans[index].aresStatus, in: texts)
                    write.bind(at + 8, rows[index].challengeStartedAt)
                    write.bind(at + 9, rows[index].outcome.code)
                    write.bind(at + 10, rows[index].endedAt)
                    write.bind(at + 11, rows[index].requests)
                    write.bind(at + 12, rows[index].submitTexts)
                    write.bind(at + 13, spans[index].lastUiType, in: texts)
                    write.bind(at + 14, rows[index].firstSubmitAt)
                    write.bind(at + 15, rows[index].lastSubmitAt)
                    write.bind(at + 16, spans[index].subTimes, in: texts)
                }
            }
        }
        let insert = RowInserter(db, "INSERT INTO \(factTable(generation))(kind, t, sid, a, b, seq)", columns: 6)
        try facts.withUnsafeBufferPointer { (facts) throws(ProjectionError) in
            try insert.insert(count: facts.count) { st, index, at in
                st.bind(at + 1, facts[index].fact.kind.rawValue)
                st.bind(at + 2, facts[index].fact.occurredAt)
                st.bind(at + 3, facts[index].fact.sid)
                st.bind(at + 4, facts[index].a, in: texts)
                st.bind(at + 5, facts[index].b, in: texts)
                st.bind(at + 6, facts[index].seq)
            }
        }
    }

    private func load(_ name: String, db: ProjectionDatabase) throws(ProjectionError) -> ThreeDSStreamRow? {
        try load(StreamNameHash.lookup, db: db) { StreamNameHash.bindLookup(name, to: $0) }
    }

    private func load(sid: Int64, db: ProjectionDatabase) throws(ProjectionError) -> ThreeDSStreamRow? {
        try load("sid = ?", db: db) { $0.bind(1, sid) }
    }

    private func load(
        _ condition: String, db: ProjectionDatabase,
        bind: (Statement) -> Void
    ) throws(ProjectionError) -> ThreeDSStreamRow? {
        let st = try db.statement(
            """
            SELECT sid, name, created_t, ds, mv, ares, started_t, outcome, ended_t, requests, submits, last_ui,
              sub_times
            FROM \(Self.streamTable(generation)) WHERE \(condition)
            """)
        bind(st)
        defer { st.reset() } // a statement left on a row would lock its table
        guard try st.step() else { return nil }
        var row = ThreeDSStreamRow(sid: st.int(0), name: st.text(1))
        row.createdAt = st.optionalInt(2)
        row.directoryServer = st.optionalText(3)
        row.messageVersion = st.optionalText(4)
        row.aresStatus = st.optionalText(5)
        row.challengeStartedAt = st.optionalInt(6)
        row.outcome = ThreeDSTransaction.OutcomeKey(code: st.int(7)) ?? .open
        row.endedAt = st.optionalInt(8)
        row.requests = st.int(9)
        row.submitTexts = st.int(10)
        row.lastUiType = st.optionalText(11)
        if let times = st.optionalText(12) {
            guard let decoded = SortedValues.decode(times) else {
                throw ProjectionError(.database, "3ds read model: unreadable sub_times column")
            }
            row.submitTimes = decoded
        }
        return row
    }
}
