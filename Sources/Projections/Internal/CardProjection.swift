import Domain
import JournalCore

/// The `card` read model: one row per `card` stream, updated in place, and one fact row per
/// counted event, indexed by kind and occurredAt.
///
/// Tables of generation G:
/// - `pj_card_stream_gG(sid PK, name, nh (its hash, indexed), decision_t, methods (JSON object id → kind), selected,
///   selections, otps, outcome, ended_t, otp_first_t, otp_last_t, start_t, eligible, sel_types)`; indexes on
///   `decision_t` and `start_t` (the `rates` cohort of a window's partial minutes).
/// - `pj_card_fact_gG(kind, t, sid, a, b, v, seq)`, `WITHOUT ROWID`, keyed `(kind, t, a, b, sid, seq)`.
/// - the all-time totals (``TotalsTables``, prefix `pj_card`).
final class CardProjection: StreamDirectoryModel {
    let name = "card"
    /// 2: covering fact index. 3: totals folded by structured keys, stream rows upserted.
    /// 4: counters and activation durations per time bucket (minute, 10 minutes, hour, day).
    /// 5: earliest and latest OTPSubmitted per journey; `journey` placed at the earliest.
    /// 6: OTP times per journey and the long-span table (`otp` windows).
    /// 7: duration lists per 10 minutes too.
    /// 8: the stream-name index is on a 64-bit hash of the name (`nh`), not on the text.
    /// 9: a store's stream id is the row's sid (no name index at the swap); facts clustered on
    ///    `(kind, t, a, b, sid, seq)` (no fact index); no histogram over all methods (summed from
    ///    theirs at query time).
    /// 10: the histogram over all methods is stored again (the sum at query time was too slow
    ///     for the query-time goal on large journals).
    /// 11: the journey's start (`EligibilityChecked`), eligibility and selected method types,
    ///     and the `cohort` counters at the start (`rates`).
    var version: Int64 = 11
    var generation: Int64 = 0
    var directory = StreamRowDirectory<CardStreamRow>()

    static func streamTable(_ g: Int64) -> String { "pj_card_stream_g\(g)" }
    static func factTable(_ g: Int64) -> String { "pj_card_fact_g\(g)" }

    static let totals = TotalsTables(prefix: "pj_card")
    static let longSpans = LongSpanTable(prefix: "pj_card")

    func tableNames(generation g: Int64) -> [String] {
        [Self.streamTable(g), Self.factTable(g)] + Self.totals.names(g) + [Self.longSpans.name(g)]
    }

    func createTables(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        let f = Self.factTable(g)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(s)(sid INTEGER PRIMARY KEY, name TEXT NOT NULL, nh \
            INTEGER NOT NULL, decision_t INTEGER,
              methods TEXT NOT NULL, selected TEXT, selections INTEGER NOT NULL, otps INTEGER NOT NULL,
              outcome INTEGER NOT NULL, ended_t INTEGER, otp_first_t INTEGER, otp_last_t INTEGER, otp_times TEXT,
              start_t INTEGER, eligible INTEGER NOT NULL, sel_types TEXT);
            CREATE TABLE IF NOT EXISTS \(f)(kind INTEGER NOT NULL, t INTEGER NOT NULL, sid INTEGER NOT NULL,
              a TEXT NOT NULL, b TEXT NOT NULL, v INTEGER, seq INTEGER NOT NULL,
              PRIMARY KEY(kind, t, a, b, sid, seq)) WITHOUT ROWID;
            """)
        try Self.totals.create(in: db, generation: g)
        try Self.longSpans.create(in: db, generation: g)
    }

    func createIndexes(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        // No name index: a store's stream id is the row's sid; the fact table is clustered on
        // its query order (see `ThreeDSProjection`).
        try db.execute(
            """
            CREATE INDEX IF NOT EXISTS \(s)_decision ON \(s)(decision_t);
            CREATE INDEX IF NOT EXISTS \(s)_start ON \(s)(start_t, eligible, outcome, decision_t, sel_types, selected);
            """)
    }

    func fold(
        _ events: ArraySlice<EventView>, names: StreamNaming,
        db: ProjectionDatabase?
    ) throws(ProjectionError) -> PendingWrite? {
        guard try openIfNeeded(db) else { return nil }
        if db == nil && !self.directory.holdsRows(of: events, category: .card) { return nil }
        // The directory moves into a local for the loop (no exclusivity check per access) and back.
        var directory = StreamRowDirectory<CardStreamRow>(cacheLimit: 0)
        swap(&directory, &self.directory)
        defer { swap(&directory, &self.directory) }
        let generation = self.generation
        let (ordered, facts, seqs, totals) = try directory.fold(
            events, with: CardFold.self, names: names,
            loadSID: { sid throws(ProjectionError) in try load(sid: sid, db: Self.needed(db)) },
            loadName: { name throws(ProjectionError) in try load(name, db: Self.needed(db)) },
            createNameIndex: { () throws(ProjectionError) in
                try createNameIndex(in: Self.needed(db), generation: generation)
            },
            model: "card")
        let order = FactOrder.sorted(
            count: facts.count, kind: { facts[$0].kind.rawValue },
            time: { facts[$0].occurredAt }, seqs: seqs)
        // Every text the write binds, in one buffer (bound without a copy, see `TextArena`).
        var texts = TextArena(capacity: ordered.count * 64 + facts.count * 12)
        var rowTexts: [RowTexts] = []
        rowTexts.reserveCapacity(ordered.count)
        for row in ordered {
            rowTexts.append(
                RowTexts(
                    name: texts.add(row.name), methods: texts.add(Self.encode(row.methods)),
                    selected: texts.add(row.selectedKind),
                    otpTimes: texts.add(row.otpTimes.isEmpty ? nil : SortedValues.encode(row.otpTimes)),
                    selectedTypes: texts.add(
                        row.selectedTypes.isEmpty
                            ? nil
                            : row.selectedTypes.joined(separator: ","))))
        }
        let sortedFacts = order.map {
            (fact: facts[$0], seq: seqs[$0], a: texts.add(facts[$0].a), b: texts.add(facts[$0].b))
        }
        let prepared = TotalsTables.prepare(totals)
        let longSpans = LongSpanTable.rows(ordered.lazy.map { ($0.sid, $0.otpTimes) })
        return PendingWrite(
            Rows(
                rows: ordered, rowTexts: rowTexts, facts: sortedFacts, texts: texts, totals: prepared,
                longSpans: longSpans, generation: generation))
    }

    /// Where a stream row's texts are in its batch's ``TextArena``.
    private struct RowTexts {
        let name, methods, selected, otpTimes, selectedTypes: TextArena.Span
    }

    private typealias SortedFact = (fact: CardFact, seq: Int64, a: TextArena.Span, b: TextArena.Span)

    /// A batch's rows, written in the batch's transaction.
    private struct Rows: BatchWrite {
        let rows: [CardStreamRow]
        let rowTexts: [RowTexts]
        let facts: [SortedFact]
        let texts: TextArena
        let totals: TotalsTables.Prepared
        let longSpans: [(sid: Int64, first: Int64, last: Int64, times: String)]
        let generation: Int64

        func write(in db: ProjectionDatabase) throws(ProjectionError) {
            try texts.withBytes { (bytes) throws(ProjectionError) in
                try CardProjection.write(rows, rowTexts, facts: facts, texts: bytes, in: db, generation: generation)
            }
            try CardProjection.totals.write(totals, in: db, generation: generation)
            try CardProjection.longSpans.keep(longSpans, in: db, generation: generation)
        }
    }

    private static func write(
        _ rows: [CardStreamRow], _ rowTexts: [RowTexts], facts: [SortedFact],
        texts: TextArena.Bytes, in db: ProjectionDatabase, generation: Int64
    ) throws(ProjectionError) {
        let upsert = RowInserter(
            db,
            """
            INSERT INTO \(streamTable(generation))(sid, name, nh, decision_t, methods, selected,
              selections, otps, outcome, ended_t, otp_first_t, otp_last_t, otp_times, start_t, eligible, sel_types)
            """, columns: 16,
            tail: """
                ON CONFLICT(sid) DO UPDATE SET decision_t = excluded.decision_t, methods = excluded.methods,
                  selected = excluded.selected, selections = excluded.selections, otps = excluded.otps,
                  outcome = excluded.outcome, ended_t = excluded.ended_t, otp_first_t = excluded.otp_first_t,
                  otp_last_t = excluded.otp_last_t, otp_times = excluded.otp_times, start_t = excluded.start_t,
                  eligible = excluded.eligible, sel_types = excluded.sel_types
                """)
        // Fields read in place (no copy of each row); see `ThreeDSProjection`.
        try rows.withUnsafeBufferPointer { (rows) throws(ProjectionError) in
            try rowTexts.withUnsafeBufferPointer { (spans) throws(ProjectionError) in
                try upsert.insert(count: rows.count) { write, index, at in
                    write.bind(at + 1, rows[index].sid)
                    write.bind(at + 2, spans[index].name, in: texts)
                    write.bind(at + 3, StreamNameHash.stored(rows[index].name))
                    write.bind(at + 4, rows[index].decisionAt)
                    write.bind(at + 5, spans[index].methods, in: texts)
                    write.bind(at + 6, spans[index].selected, in: texts)
                    write.bind(at + 7, rows[index].selections)
                    write.bind(at + 8, rows[index].otpSubmissions)
                    write.bind(at + 9, rows[index].outcome.code)
                    write.bind(at + 10, rows[index].endedAt)
                    write.bind(at + 11, rows[index].firstOTPAt)
                    write.bind(at + 12, rows[index].lastOTPAt)
                    write.bind(at + 13, spans[index].otpTimes, in: texts)
                    write.bind(at + 14, rows[index].startedAt)
                    write.bind(at + 15, Int64(rows[index].eligible ? 1 : 0))
                    write.bind(at + 16, spans[index].selectedTypes, in: texts)
                }
            }
        }
        let insert = RowInserter(db, "INSERT INTO \(factTable(generation))(kind, t, sid, a, b, v, seq)", columns: 7)
        try facts.withUnsafeBufferPointer { (facts) throws(ProjectionError) in
            try insert.insert(count: facts.count) { st, index, at in
                st.bind(at + 1, facts[index].fact.kind.rawValue)
                st.bind(at + 2, facts[index].fact.occurredAt)
                st.bind(at + 3, facts[index].fact.sid)
                st.bind(at + 4, facts[index].a, in: texts)
                st.bind(at + 5, facts[index].b, in: texts)
                st.bind(at + 6, facts[index].fact.v)
                st.bind(at + 7, facts[index].seq)
            }
        }
    }

    private func load(_ name: String, db: ProjectionDatabase) throws(ProjectionError) -> CardStreamRow? {
        try load(StreamNameHash.lookup, db: db) { StreamNameHash.bindLookup(name, to: $0) }
    }

    private func load(sid: Int64, db: ProjectionDatabase) throws(ProjectionError) -> CardStreamRow? {
        try load("sid = ?", db: db) { $0.bind(1, sid) }
    }

    private func load(
        _ condition: String, db: ProjectionDatabase,
        bind: (Statement) -> Void
    ) throws(ProjectionError) -> CardStreamRow? {
        let st = try db.statement(
            """
            SELECT sid, name, decision_t, methods, selected, selections, otps, outcome, ended_t, otp_times,
              start_t, eligible, sel_types
            FROM \(Self.streamTable(generation)) WHERE \(condition)
            """)
        bind(st)
        defer { st.reset() } // a statement left on a row would lock its table
        guard try st.step() else { return nil }
        var row = CardStreamRow(sid: st.int(0), name: st.text(1))
        row.decisionAt = st.optionalInt(2)
        row.methods = try Self.decode(st.text(3))
        row.selectedKind = st.optionalText(4)
        row.selections = st.int(5)
        row.otpSubmissions = st.int(6)
        row.outcome = CardDigitization.OutcomeKey(code: st.int(7)) ?? .open
        row.endedAt = st.optionalInt(8)
        if let times = st.optionalText(9) {
            guard let decoded = SortedValues.decode(times) else {
                throw ProjectionError(.database, "card read model: unreadable otp_times column")
            }
            row.otpTimes = decoded
        }
        row.startedAt = st.optionalInt(10)
        row.eligible = st.int(11) != 0
        row.selectedTypes = st.optionalText(12).map { $0.split(separator: ",").map(String.init) } ?? []
        return row
    }

    static func encode(_ methods: [String: String]) -> String {
        if methods.isEmpty { return "{}" }
        let object = JSONObject(methods.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        return JSONWriter.string(.object(object))
    }

    static func decode(_ text: String) throws(ProjectionError) -> [String: String] {
        if text == "{}" { return [:] }
        guard let object = (try? JSONParser().parse(text))?.objectValue else {
            throw ProjectionError(.database, "card read model: unreadable methods column")
        }
        var methods: [String: String] = [:]
        for (key, value) in object { methods[key] = value.stringValue ?? "unknown" }
        return methods
    }
}
