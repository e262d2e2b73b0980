import Domain

extension StreamsRow: StreamRow {}

/// The `streams` read model: a directory of every stream, one row each, updated in place, that
/// `journal find` searches instead of the log.
///
/// Tables of generation G:
/// - `pj_streams_gG(sid PK, name, nh, category, start_t, last_t, events, outcome, terminal, ds,
///   sti, ati, dci)`: `category` `3ds` or `card`; `start_t`/`last_t` the occurredAt (ms) of the
///   first and last event; `outcome` the name ``StreamOutcome`` shows, `terminal` 1 once ended;
///   `ds` the directory server, `sti`/`ati` the ARes' `threeDSServerTransID`/`acsTransID`, `dci`
///   the `digitalCardID`. `name` and `nh` as in the other stream tables (kept only for a source
///   without stream ids). Indexes: `(start_t, sid, category)`, and each other filter followed by
///   `start_t` (the order `find` prints in, so a `LIMIT` stops early); `(outcome, ds, start_t)`
///   for both together; the open streams alone (`WHERE terminal = 0`).
/// - `pj_streams_corr_gG(cid, sid)`, `WITHOUT ROWID`, keyed `(cid, sid)`: every
///   `meta.correlationId` a stream's events carry (a stream may carry several).
final class StreamsProjection: StreamDirectoryModel {
    let name = "streams"
    /// 2: an index on (outcome, ds) for the two filters together (one index alone left up to
    ///    every transaction of the directory server to read for a rare outcome).
    /// 3: no index of its own for the category (two values: the start index holds it, so a scan
    ///    in start order checks it without reading the table); the open streams' index is
    ///    partial (`WHERE terminal = 0`: the few in flight, not one entry per stream).
    var version: Int64 = 3
    var generation: Int64 = 0
    var directory = StreamRowDirectory<StreamsRow>()

    static func streamTable(_ g: Int64) -> String { "pj_streams_g\(g)" }
    static func correlationTable(_ g: Int64) -> String { "pj_streams_corr_g\(g)" }

    func tableNames(generation g: Int64) -> [String] { [Self.streamTable(g), Self.correlationTable(g)] }

    func createTables(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let sql = db.sql
        let (int, text) = (sql.integer, sql.text)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(Self.streamTable(g))(sid \(int) PRIMARY KEY, name \(text) NOT NULL,
              nh \(int) NOT NULL, category \(text) NOT NULL, start_t \(int) NOT NULL, last_t \(int) NOT NULL,
              events \(int) NOT NULL, outcome \(text) NOT NULL, terminal \(int) NOT NULL, ds \(text), sti \(text),
              ati \(text), dci \(text));
            CREATE TABLE IF NOT EXISTS \(Self.correlationTable(g))(cid \(text) NOT NULL, sid \(int) NOT NULL,
              PRIMARY KEY(cid, sid))\(sql.clustered);
            """)
    }

    /// None kept by a rebuild's batches: see ``createIndexesAtSwap(in:generation:)``.
    func createIndexes(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {}

    /// Every index, made once by sorting when a rebuild is swapped in. Kept row by row, they
    /// cost about seven B-tree changes per stream row a batch writes (a row is written again by
    /// every batch that touches its stream, and its outcome, `terminal` and `ds` move it in four
    /// of them; the ids land on random pages), all on the writing thread, which sets a
    /// rebuild's pace; one sort each at the swap costs less.
    func createIndexesAtSwap(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        try db.execute(
            """
            CREATE INDEX IF NOT EXISTS \(s)_start ON \(s)(start_t, sid, category);
            CREATE INDEX IF NOT EXISTS \(s)_outcome ON \(s)(outcome, start_t, sid);
            CREATE INDEX IF NOT EXISTS \(s)_open ON \(s)(start_t, sid) WHERE terminal = 0;
            CREATE INDEX IF NOT EXISTS \(s)_ds ON \(s)(ds, start_t, sid);
            CREATE INDEX IF NOT EXISTS \(s)_ds_outcome ON \(s)(outcome, ds, start_t, sid) WHERE ds IS NOT NULL;
            CREATE INDEX IF NOT EXISTS \(s)_sti ON \(s)(sti) WHERE sti IS NOT NULL;
            CREATE INDEX IF NOT EXISTS \(s)_ati ON \(s)(ati) WHERE ati IS NOT NULL;
            CREATE INDEX IF NOT EXISTS \(s)_dci ON \(s)(dci) WHERE dci IS NOT NULL;
            """)
    }

    func fold(
        _ events: ArraySlice<EventView>, names: StreamNaming,
        db: ProjectionDatabase?
    ) throws(ProjectionError) -> PendingWrite? {
        guard try openIfNeeded(db) else { return nil }
        if db == nil
            && !(directory.holdsRows(of: events, category: .threeDS)
                && directory.holdsRows(of: events, category: .card))
        {
            return nil
        }
        var directory = StreamRowDirectory<StreamsRow>(cacheLimit: 0)
        swap(&directory, &self.directory)
        defer { swap(&directory, &self.directory) }
        let generation = self.generation
        let storeKeys = names.storeKeys
        var correlations: [String] = []
        var pairs: [(cid: String, sid: Int64)] = []
        directory.beginBatch()
        for event in events where event.category != nil {
            let stream = event.stream
            let (slot, _) = try directory.slot(
                of: stream, storeKeys: storeKeys, name: { () throws(ProjectionError) in try names.name(of: stream) },
                loadSID: { sid throws(ProjectionError) in try load(sid: sid, db: Self.needed(db)) },
                loadName: { name throws(ProjectionError) in try load(name, db: Self.needed(db)) },
                createNameIndex: { () throws(ProjectionError) in
                    try createNameIndex(in: Self.needed(db), generation: generation)
                },
                model: name)
            StreamsFold.apply(event, to: &directory.rows[slot], correlations: &correlations)
            if !correlations.isEmpty {
                for cid in correlations { pairs.append((cid, directory.rows[slot].sid)) }
                correlations.removeAll(keepingCapacity: true)
            }
        }
        // In sid order (new rows append to the table's B-tree); the ids go with this write only.
        var touched = directory.touched.map { Int($0) }
        touched.sort { directory.rows[$0].sid < directory.rows[$1].sid }
        var rows: [StreamsRow] = []
        rows.reserveCapacity(touched.count)
        for slot in touched {
            rows.append(directory.rows[slot])
            directory.rows[slot].serverTransID = nil
            directory.rows[slot].acsTransID = nil
            directory.rows[slot].digitalCardID = nil
        }
        directory.endBatch()
        // In key order, each pair once (a stream may come back to an id it carried before).
        pairs.sort { $0.cid != $1.cid ? $0.cid < $1.cid : $0.sid < $1.sid }
        var kept = 0
        for index in pairs.indices where kept == 0 || pairs[index] != pairs[kept - 1] {
            pairs[kept] = pairs[index]
            kept += 1
        }
        pairs.removeLast(pairs.count - kept)
        return PendingWrite(Rows(rows: rows, correlations: pairs, generation: generation))
    }

    /// A batch's rows, written in the batch's transaction.
    private struct Rows: BatchWrite {
        let rows: [StreamsRow]
        let correlations: [(cid: String, sid: Int64)]
        let generation: Int64

        func write(in db: ProjectionDatabase) throws(ProjectionError) {
            let table = StreamsProjection.streamTable(generation)
            // An id is set once per stream and kept in memory only until written: a later
            // write of the row keeps the stored one.
            let upsert = RowInserter(
                db,
                """
                INSERT INTO \(table)(sid, name, nh, category, start_t, last_t, events, outcome, terminal, ds, sti,
                  ati, dci)
                """, columns: 13,
                tail: """
                    ON CONFLICT(sid) DO UPDATE SET last_t = excluded.last_t, events = excluded.events,
                      outcome = excluded.outcome, terminal = excluded.terminal, ds = excluded.ds,
                      sti = coalesce(excluded.sti, \(table).sti), ati = coalesce(excluded.ati, \(table).ati),
                      dci = coalesce(excluded.dci, \(table).dci)
                    """)
            try rows.withUnsafeBufferPointer { (rows) throws(ProjectionError) in
                try upsert.insert(count: rows.count) { write, index, at in
                    let row = rows[index]
                    write.bind(at + 1, row.sid)
                    write.bind(at + 2, row.name)
                    write.bind(at + 3, StreamNameHash.stored(row.name))
                    write.bind(at + 4, StreamsProjection.categoryName(row.category))
                    write.bind(at + 5, row.startedAt ?? 0)
                    write.bind(at + 6, row.lastAt ?? 0)
                    write.bind(at + 7, row.events)
                    write.bind(at + 8, row.outcome?.name ?? StreamOutcome.openName)
                    write.bind(at + 9, Int64(row.outcome?.isTerminal == true ? 1 : 0))
                    write.bind(at + 10, row.directoryServer)
                    write.bind(at + 11, row.serverTransID)
                    write.bind(at + 12, row.acsTransID)
                    write.bind(at + 13, row.digitalCardID)
                }
            }
            let insert = RowInserter(
                db, "INSERT INTO \(StreamsProjection.correlationTable(generation))(cid, sid)",
                columns: 2, tail: "ON CONFLICT(cid, sid) DO NOTHING")
            try correlations.withUnsafeBufferPointer { (pairs) throws(ProjectionError) in
                try insert.insert(count: pairs.count) { write, index, at in
                    write.bind(at + 1, pairs[index].cid)
                    write.bind(at + 2, pairs[index].sid)
                }
            }
        }
    }

    static func categoryName(_ category: StreamCategory?) -> String { category?.rawValue ?? "other" }

    static let loadColumns = "sid, name, category, start_t, last_t, events, outcome, ds"

    /// A stored row, without its ids (the stored ones stay; see ``Rows``).
    static func row(from st: Statement) throws(ProjectionError) -> StreamsRow {
        var row = StreamsRow(sid: st.int(0), name: st.text(1))
        let category = st.text(2)
        row.category = StreamCategory(rawValue: category)
        row.startedAt = st.int(3)
        row.lastAt = st.int(4)
        row.events = st.int(5)
        let outcome = st.text(6)
        row.outcome = Self.outcome(named: outcome, category: row.category)
        guard row.outcome != nil || outcome == StreamOutcome.openName else {
            throw ProjectionError(.database, "streams read model: unknown outcome '\(outcome)' in row \(row.sid)")
        }
        row.directoryServer = st.optionalText(7)
        return row
    }

    /// The outcome stored under `name` for a stream of `category`.
    static func outcome(named name: String, category: StreamCategory?) -> StreamOutcome? {
        switch category {
        case .threeDS:
            if let key = ThreeDSTransaction.OutcomeKey(rawValue: name), key != .open { return .threeDSEnded(key) }
            return ThreeDSTransaction.Status(rawValue: name).map { .threeDSOpen($0) }
        case .card:
            if let key = CardDigitization.OutcomeKey(rawValue: name), key != .open { return .cardEnded(key) }
            return CardDigitization.Status(rawValue: name).map { .cardOpen($0) }
        case nil:
            return nil
        }
    }
}
