import Domain

/// A category's read model (`3ds`, `card`). Tables of generation G, with the prefix P:
/// - `P_stream_gG`: one row per stream (`sid` its key, `name`, `nh` a hash of the name, then the
///   model's ``rowColumns``), upserted as the stream moves on;
/// - `P_fact_gG(kind, t, sid, a, b, [v,] seq)`: one row per counted event (``StreamFact``),
///   clustered on `(kind, t, a, b, sid, seq)`;
/// - the all-time totals (``TotalsTables``) and the long-span table (``LongSpanTable``).
///
/// The two models differ in their stream row, its columns and their fold; how a batch is folded
/// and written and how a row is read back is said here, once.
protocol CategoryModel: StreamDirectoryModel where Row == Fold.Row {
    associatedtype Fold: CountingFold
    /// Where a stream row's texts are in its batch's ``TextArena``.
    associatedtype RowTexts: StreamRowTexts

    /// The tables' prefix (`pj_3ds`, `pj_card`).
    static var tablePrefix: String { get }
    /// The stream table's column definitions after `sid, name, nh`.
    static func streamColumnDefinitions(_ sql: ReadModelSQL) -> String
    /// The fact table has the value column `v`.
    static var factsHaveValues: Bool { get }
    /// The stream table's columns after `sid, name, nh`, in the order ``bind(_:_:texts:to:after:)``
    /// binds them; an upsert updates them all.
    static var rowColumns: [String] { get }
    /// Text bytes to reserve per stream row in a batch's arena.
    static var textBytesPerRow: Int { get }

    /// Adds the texts of `row` to `texts`.
    static func texts(of row: Row, in texts: inout TextArena) -> RowTexts
    /// The times the long-span table keeps for `row` (`otp` windows).
    static func spanTimes(of row: Row) -> [Int64]
    /// Binds `row`'s ``rowColumns`` at `at + 1` and on.
    static func bind(_ row: Row, _ spans: RowTexts, texts: TextArena.Bytes, to statement: Statement, after at: Int32)
}

/// A stream row's texts in its batch's ``TextArena``: the name, and what the model adds.
protocol StreamRowTexts {
    var name: TextArena.Span { get }
}

extension CategoryModel {
    static func streamTable(_ g: Int64) -> String { "\(tablePrefix)_stream_g\(g)" }
    static func factTable(_ g: Int64) -> String { "\(tablePrefix)_fact_g\(g)" }

    static var totals: TotalsTables { TotalsTables(prefix: tablePrefix) }
    static var longSpans: LongSpanTable { LongSpanTable(prefix: tablePrefix) }

    func tableNames(generation g: Int64) -> [String] {
        [Self.streamTable(g), Self.factTable(g)] + Self.totals.names(g) + [Self.longSpans.name(g)]
    }

    func createTables(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let sql = db.sql
        let (int, text) = (sql.integer, sql.text)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(Self.streamTable(g))(sid \(int) PRIMARY KEY, name \(text) NOT NULL, \
            nh \(int) NOT NULL, \(Self.streamColumnDefinitions(sql)));
            CREATE TABLE IF NOT EXISTS \(Self.factTable(g))(kind \(int) NOT NULL, t \(int) NOT NULL, \
            sid \(int) NOT NULL,
              a \(text) NOT NULL, b \(text) NOT NULL, \(Self.factsHaveValues ? "v \(int), " : "")seq \(int) NOT NULL,
              PRIMARY KEY(kind, t, a, b, sid, seq))\(sql.clustered);
            """)
        try Self.totals.create(in: db, generation: g)
        try Self.longSpans.create(in: db, generation: g)
    }

    func fold(
        _ events: ArraySlice<EventView>, names: StreamNaming,
        db: ProjectionDatabase?
    ) throws(ProjectionError) -> PendingWrite? {
        guard try openIfNeeded(db) else { return nil }
        if db == nil && !self.directory.holdsRows(of: events, category: Fold.category) { return nil }
        // The directory moves into a local for the loop (no exclusivity check per access) and back.
        var directory = StreamRowDirectory<Row>(cacheLimit: 0)
        swap(&directory, &self.directory)
        defer { swap(&directory, &self.directory) }
        let generation = self.generation
        let (ordered, facts, seqs, totals) = try directory.fold(
            events, with: Fold.self, names: names,
            loadSID: { sid throws(ProjectionError) in try load(sid: sid, db: Self.needed(db)) },
            loadName: { name throws(ProjectionError) in try load(name, db: Self.needed(db)) },
            createNameIndex: { () throws(ProjectionError) in
                try createNameIndex(in: Self.needed(db), generation: generation)
            },
            model: name)
        let order = FactOrder.sorted(
            count: facts.count, kind: { facts[$0].kind.rawValue },
            time: { facts[$0].occurredAt }, seqs: seqs)
        // Every text the write binds, in one buffer (bound without a copy, see `TextArena`).
        var texts = TextArena(capacity: ordered.count * Self.textBytesPerRow + facts.count * 12)
        var rowTexts: [RowTexts] = []
        rowTexts.reserveCapacity(ordered.count)
        for row in ordered { rowTexts.append(Self.texts(of: row, in: &texts)) }
        let sortedFacts = order.map {
            CategoryRows<Self>.SortedFact(
                fact: facts[$0], seq: seqs[$0], a: texts.add(facts[$0].a), b: texts.add(facts[$0].b))
        }
        let prepared = TotalsTables.prepare(totals)
        let longSpans = LongSpanTable.rows(ordered.lazy.map { ($0.sid, Self.spanTimes(of: $0)) })
        return PendingWrite(
            CategoryRows<Self>(
                rows: ordered, rowTexts: rowTexts, facts: sortedFacts, texts: texts, totals: prepared,
                longSpans: longSpans, generation: generation))
    }

    /// Writes a batch's stream rows (upserted) and facts.
    fileprivate static func write(
        _ rows: [Row], _ rowTexts: [RowTexts], facts: [CategoryRows<Self>.SortedFact],
        texts: TextArena.Bytes, in db: ProjectionDatabase, generation: Int64
    ) throws(ProjectionError) {
        let columns = ["sid", "name", "nh"] + rowColumns
        let upsert = RowInserter(
            db, "INSERT INTO \(streamTable(generation))(\(columns.joined(separator: ", ")))",
            columns: columns.count,
            tail: "ON CONFLICT(sid) DO UPDATE SET "
                + rowColumns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        // Fields read in place (no copy of each row, and of its strings' references).
        try rows.withUnsafeBufferPointer { (rows) throws(ProjectionError) in
            try rowTexts.withUnsafeBufferPointer { (spans) throws(ProjectionError) in
                try upsert.insert(count: rows.count) { write, index, at in
                    write.bind(at + 1, rows[index].sid)
                    write.bind(at + 2, spans[index].name, in: texts)
                    write.bind(at + 3, StreamNameHash.stored(rows[index].name))
                    bind(rows[index], spans[index], texts: texts, to: write, after: at + 3)
                }
            }
        }
        let values = factsHaveValues
        let insert = RowInserter(
            db, "INSERT INTO \(factTable(generation))(kind, t, sid, a, b, \(values ? "v, " : "")seq)",
            columns: values ? 7 : 6)
        try facts.withUnsafeBufferPointer { (facts) throws(ProjectionError) in
            try insert.insert(count: facts.count) { st, index, at in
                st.bind(at + 1, facts[index].fact.kind.rawValue)
                st.bind(at + 2, facts[index].fact.occurredAt)
                st.bind(at + 3, facts[index].fact.sid)
                st.bind(at + 4, facts[index].a, in: texts)
                st.bind(at + 5, facts[index].b, in: texts)
                if values {
                    st.bind(at + 6, facts[index].fact.v)
                    st.bind(at + 7, facts[index].seq)
                } else {
                    st.bind(at + 6, facts[index].seq)
                }
            }
        }
    }
}

/// A batch's rows of a ``CategoryModel``, written in the batch's transaction.
struct CategoryRows<Model: CategoryModel>: BatchWrite {
    struct SortedFact {
        let fact: StreamFact<Model.Fold.FactKind>
        let seq: Int64
        let a, b: TextArena.Span
    }

    let rows: [Model.Row]
    let rowTexts: [Model.RowTexts]
    let facts: [SortedFact]
    let texts: TextArena
    let totals: TotalsTables.Prepared
    let longSpans: [(sid: Int64, first: Int64, last: Int64, times: String)]
    let generation: Int64

    func write(in db: ProjectionDatabase) throws(ProjectionError) {
        try texts.withBytes { (bytes) throws(ProjectionError) in
            try Model.write(rows, rowTexts, facts: facts, texts: bytes, in: db, generation: generation)
        }
        try Model.totals.write(totals, in: db, generation: generation)
        try Model.longSpans.keep(longSpans, in: db, generation: generation)
    }
}
