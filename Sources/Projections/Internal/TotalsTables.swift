/// The all-time totals of one projection generation: `<prefix>_total_gG(key, n)` counters,
/// and exact duration histograms `<prefix>_hist_gG(metric, v, n)` with a coarse companion
/// `<prefix>_histc_gG(metric, b, n)`, `b = v >> 14` (16.4 s buckets), so a percentile reads the
/// coarse rows, then only the fine rows of one bucket.
struct TotalsTables {
    let prefix: String

    func total(_ g: Int64) -> String { "\(prefix)_total_g\(g)" }
    func hist(_ g: Int64) -> String { "\(prefix)_hist_g\(g)" }
    func coarse(_ g: Int64) -> String { "\(prefix)_histc_g\(g)" }
    /// Counters per time bucket: `(m, w, b, key, n)`, m = the metric, w = the bucket width in
    /// minutes, b = ⌊minute / w⌋ (see ``TimeBuckets``).
    func bucketed(_ g: Int64) -> String { "\(prefix)_tb_g\(g)" }
    /// Durations per time bucket: `(w, b, metric, vals)`, vals the sorted values (``SortedValues``).
    func bucketedValues(_ g: Int64) -> String { "\(prefix)_tv_g\(g)" }
    static let coarseShift: Int64 = 14

    func names(_ g: Int64) -> [String] { [total(g), hist(g), coarse(g), bucketed(g), bucketedValues(g)] }

    func create(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let sql = db.sql
        let (int, text) = (sql.integer, sql.text)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(total(g))(key \(text) PRIMARY KEY, n \(int) NOT NULL)\(sql.clustered);
            CREATE TABLE IF NOT EXISTS \(hist(g))(metric \(text) NOT NULL, v \(int) NOT NULL, n \(int) NOT NULL,
              PRIMARY KEY(metric, v))\(sql.clustered);
            CREATE TABLE IF NOT EXISTS \(coarse(g))(metric \(text) NOT NULL, b \(int) NOT NULL, n \(int) NOT NULL,
              PRIMARY KEY(metric, b))\(sql.clustered);
            CREATE TABLE IF NOT EXISTS \(bucketed(g))(m \(text) NOT NULL, w \(int) NOT NULL, b \(int) NOT NULL,
              key \(text) NOT NULL, n \(int) NOT NULL, PRIMARY KEY(m, w, b, key))\(sql.clustered);
            CREATE TABLE IF NOT EXISTS \(bucketedValues(g))(w \(int) NOT NULL, b \(int) NOT NULL,
              metric \(text) NOT NULL, vals \(text) NOT NULL, PRIMARY KEY(w, b, metric))\(sql.clustered);
            """)
    }

    /// A batch's changes, turned into the rows to add (``prepare(_:)``, pure: done on the fold's
    /// thread) and written in the batch's transaction (``write(_:in:generation:)``).
    typealias HistogramRow = (metric: String, key: Int64, n: Int64)

    /// The histogram tables' primary-key order (metric, then key).
    static func inKeyOrder(_ a: HistogramRow, _ b: HistogramRow) -> Bool {
        a.metric != b.metric ? a.metric < b.metric : a.key < b.key
    }

    struct Prepared: Sendable {
        var counts: [(key: String, n: Int64)] = []
        /// Sorted by the table's primary key (sequential B-tree pages, not one random page a row);
        /// the texts are spans of ``texts`` (bound without a copy).
        var buckets: [(metric: TextArena.Span, width: Int64, bucket: Int64, key: TextArena.Span, n: Int64)] = []
        /// Exact histogram rows (key: the duration) and coarse ones (key: its 16 s bucket).
        var fine: [HistogramRow] = []
        var coarse: [HistogramRow] = []
        /// The bucket rows' texts, and the fine histogram rows' metrics (`fineMetrics[i]` is
        /// `fine[i].metric`).
        var texts = TextArena()
        var fineMetrics: [TextArena.Span] = []
        /// Changes to the sorted duration lists of the time buckets (a read-modify-write each).
        var values: [(width: Int64, bucket: Int64, metric: String, change: [Int64: Int64])] = []
    }

    /// Adds a batch's changes.
    func flush(_ delta: TotalsDelta, in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        try write(Self.prepare(delta), in: db, generation: g)
    }

    /// The rows a batch's changes add (no database access).
    static func prepare(_ delta: TotalsDelta) -> Prepared {
        var prepared = Prepared()
        var all: [String: Int64] = [:]
        // Each distinct key (without its minute) gets a small number for this batch; the
        // bucket sums are runs of a list sorted by (number, minute), not hash-table entries;
        // the rows are written sorted by the table's primary key (sequential B-tree pages
        // instead of one random page per row).
        var ids: [TotalsDelta.Key: Int] = [:]
        var texts: [String] = []
        var metrics: [TotalsDelta.Metric] = []
        var timed: [(id: Int, minute: Int64, n: Int64)] = []
        timed.reserveCapacity(delta.counts.count)
        for (key, n) in delta.counts where n != 0 {
            var untimed = key
            untimed.minute = TotalsDelta.Key.untimed
            let id = ids.memo(untimed) {
                texts.append(untimed.text)
                metrics.append(key.metric)
                return texts.count - 1
            }
            all[texts[id], default: 0] += n
            guard key.minute != TotalsDelta.Key.untimed else { continue }
            timed.append((id, key.minute, n))
        }
        // Every list is sorted by its table's primary key: a batch's upserts then visit the
        // B-tree's pages in order instead of one random page per row.
        prepared.counts = all.filter { $0.value != 0 }.map { (key: $0.key, n: $0.value) }.sorted { $0.key < $1.key }
        timed.sort { $0.id != $1.id ? $0.id < $1.id : $0.minute < $1.minute }
        // The key order of the bucket table, (metric, width, bucket, key text), by integers:
        // each number's rank by (metric, text) and its metric's rank.
        let byText = texts.indices.sorted {
            let l = metrics[$0].name
            let r = metrics[$1].name
            return l != r ? l < r : texts[$0] < texts[$1]
        }
        var textRank = [Int](repeating: 0, count: texts.count)
        var metricRank = textRank
        var metricNumber = -1
        for (rank, id) in byText.enumerated() {
            if rank == 0 || metrics[byText[rank - 1]].name != metrics[id].name { metricNumber += 1 }
            textRank[id] = rank
            metricRank[id] = metricNumber
        }
        var rows: [(id: Int, width: Int64, bucket: Int64, n: Int64)] = []
        for width in TimeBuckets.countLevels {
            var i = 0
            while i < timed.count {
                let id = timed[i].id
                let bucket = TimeBuckets.floorDiv(timed[i].minute, width)
                var n: Int64 = 0
                var j = i
                while j < timed.count && timed[j].id == id && TimeBuckets.floorDiv(timed[j].minute, width) == bucket {
                    n += timed[j].n
                    j += 1
                }
                if n != 0 { rows.append((id, width, bucket, n)) }
                i = j
            }
        }
        rows.sort { l, r in
            if metricRank[l.id] != metricRank[r.id] { return metricRank[l.id] < metricRank[r.id] }
            if l.width != r.width { return l.width < r.width }
            if l.bucket != r.bucket { return l.bucket < r.bucket }
            return textRank[l.id] < textRank[r.id]
        }
        // Each distinct metric and key text once in the arena.
        let metricSpans = metrics.map { prepared.texts.add($0.name) }
        let keySpans = texts.map { prepared.texts.add($0) }
        prepared.buckets = rows.map { (metricSpans[$0.id], $0.width, $0.bucket, keySpans[$0.id], $0.n) }
        guard !delta.histogram.isEmpty else { return prepared }
        prepared.values = prepareValues(delta)
        var buckets: [Bucket: Int64] = [:]
        var metricTexts: [TotalsDelta.HistogramKey: String] = [:]
        for (key, n) in delta.histogram where n != 0 {
            var group = key
            group.value = 0
            group.minute = TotalsDelta.Key.untimed
            let metric = metricTexts.memo(group) { key.metricText }
            prepared.fine.append((metric, key.value, n))
            buckets[Bucket(metric: metric, bucket: key.value >> Self.coarseShift), default: 0] += n
        }
        prepared.fine.sort(by: inKeyOrder)
        var metricSpan: (metric: String, span: TextArena.Span)?
        prepared.fineMetrics = prepared.fine.map { row in
            if let known = metricSpan, known.metric == row.metric { return known.span }
            let span = prepared.texts.add(row.metric)
            metricSpan = (row.metric, span)
            return span
        }
        prepared.coarse = buckets.filter { $0.value != 0 }
            .map { entry -> HistogramRow in (entry.key.metric, entry.key.bucket, entry.value) }
            .sorted(by: inKeyOrder)
        return prepared
    }

    /// Adds prepared rows, in the caller's transaction.
    func write(_ prepared: Prepared, in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let counts = RowInserter(
            db, "INSERT INTO \(total(g))(key, n)", columns: 2,
            tail: "ON CONFLICT(key) DO UPDATE SET n = \(total(g)).n + excluded.n")
        try prepared.counts.withUnsafeBufferPointer { (rows) throws(ProjectionError) in
            try counts.insert(count: rows.count) { st, index, at in
                st.bind(at + 1, rows[index].key)
                st.bind(at + 2, rows[index].n)
            }
        }
        let buckets = RowInserter(
            db, "INSERT INTO \(bucketed(g))(m, w, b, key, n)", columns: 5,
            tail: "ON CONFLICT(m, w, b, key) DO UPDATE SET n = \(bucketed(g)).n + excluded.n")
        try prepared.texts.withBytes { (texts) throws(ProjectionError) in
            try prepared.buckets.withUnsafeBufferPointer { (rows) throws(ProjectionError) in
                try buckets.insert(count: rows.count) { st, index, at in
                    st.bind(at + 1, rows[index].metric, in: texts)
                    st.bind(at + 2, rows[index].width)
                    st.bind(at + 3, rows[index].bucket)
                    st.bind(at + 4, rows[index].key, in: texts)
                    st.bind(at + 5, rows[index].n)
                }
            }
            try addFine(prepared.fine, metrics: prepared.fineMetrics, texts: texts, to: hist(g), in: db)
        }
        try writeValues(prepared.values, in: db, generation: g)
        try addCounts(prepared.coarse, to: coarse(g), keyColumn: "b", in: db)
    }

    /// ``addCounts(_:to:keyColumn:in:)`` for the fine histogram rows, their metrics bound from
    /// the batch's text arena.
    private func addFine(
        _ rows: [HistogramRow], metrics: [TextArena.Span], texts: TextArena.Bytes, to table: String,
        in db: ProjectionDatabase
    ) throws(ProjectionError) {
        guard !rows.isEmpty else { return }
        let insert = RowInserter(
            db, "INSERT INTO \(table)(metric, v, n)", columns: 3,
            tail: "ON CONFLICT(metric, v) DO UPDATE SET n = \(table).n + excluded.n")
        try rows.withUnsafeBufferPointer { (rows) throws(ProjectionError) in
            try metrics.withUnsafeBufferPointer { (metrics) throws(ProjectionError) in
                try insert.insert(count: rows.count) { st, index, at in
                    st.bind(at + 1, metrics[index], in: texts)
                    st.bind(at + 2, rows[index].key)
                    st.bind(at + 3, rows[index].n)
                }
            }
        }
    }

    /// Adds each row's count to its (metric, key) row of a histogram table.
    private func addCounts(
        _ rows: [HistogramRow], to table: String, keyColumn: String,
        in db: ProjectionDatabase
    ) throws(ProjectionError) {
        guard !rows.isEmpty else { return }
        let insert = RowInserter(
            db, "INSERT INTO \(table)(metric, \(keyColumn), n)", columns: 3,
            tail: "ON CONFLICT(metric, \(keyColumn)) DO UPDATE SET n = \(table).n + excluded.n")
        try rows.withUnsafeBufferPointer { (rows) throws(ProjectionError) in
            try insert.insert(count: rows.count) { st, index, at in
                st.bind(at + 1, rows[index].metric)
                st.bind(at + 2, rows[index].key)
                st.bind(at + 3, rows[index].n)
            }
        }
    }

    private struct Bucket: Hashable {
        var metric: String
        var bucket: Int64
    }

    /// The counters of the given metrics (`req`, `otptx`, …), by key: one index range per metric.
    func counts(_ metrics: [String], in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError)
        -> [String: Int64]
    {
        let p = db.sql.p
        let st = try db.statement(
            "SELECT \(Counter.columns) FROM \(total(g)) WHERE key >= \(p(1)) AND key < \(p(2)) AND n != 0")
        var result: [String: Int64] = [:]
        for metric in metrics {
            st.reset()
            st.bind(1, metric) // the bare key (`decisions`) and every `metric|…` key
            st.bind(2, metric + "}") // `}` follows `|` in byte order
            while try st.step() {
                let counter = Counter(st)
                if counter.key == metric || counter.key.hasPrefix(metric + "|") { result[counter.key] = counter.n }
            }
        }
        return result
    }

    /// The histogram metrics holding at least one value.
    func metrics(prefix: String, in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) -> [String] {
        let p = db.sql.p
        let st = try db.statement(
            "SELECT DISTINCT metric FROM \(coarse(g)) WHERE metric > \(p(1)) AND metric < \(p(2)) AND n != 0")
        st.bind(1, prefix + "|")
        st.bind(2, prefix + "}")
        var result: [String] = []
        while try st.step() { result.append(st.text(0)) }
        return result
    }

    /// Nearest-rank percentiles (per mille) of a histogram metric (`chal|ds`, or `chal` over
    /// all groups), plus its count.
    func distribution(_ metric: String, in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError)
        -> Distribution
    {
        let p = db.sql.p
        let st = try db.statement(
            "SELECT \(CountedValue.columns("b")) FROM \(coarse(g)) WHERE metric = \(p(1)) AND n != 0 ORDER BY b")
        st.bind(1, metric)
        var buckets: [(Int64, Int64)] = []
        while try st.step() {
            let bucket = CountedValue(st)
            buckets.append((bucket.value, bucket.n))
        }
        st.reset()
        let count = buckets.reduce(0) { $0 + $1.1 }
        guard count > 0 else { return Distribution() }
        func value(perMille: Int64) throws(ProjectionError) -> Int64? {
            let rank = (perMille * count + 999) / 1000 // 1-based nearest rank
            var seen: Int64 = 0
            for (bucket, n) in buckets {
                if seen + n >= rank {
                    let fine = try db.statement(
                        """
                        SELECT \(CountedValue.columns("v")) FROM \(hist(g))
                        WHERE metric = \(p(1)) AND v >= \(p(2)) AND v < \(p(3)) AND n != 0 ORDER BY v
                        """)
                    fine.bind(1, metric)
                    fine.bind(2, bucket << Self.coarseShift)
                    fine.bind(3, (bucket + 1) << Self.coarseShift)
                    defer { fine.reset() }
                    while try fine.step() {
                        let value = CountedValue(fine)
                        seen += value.n
                        if seen >= rank { return value.value }
                    }
                    return nil // coarse and fine disagree: cannot happen, both move in one transaction
                }
                seen += n
            }
            return nil
        }
        return Distribution(
            count: count, p50: try value(perMille: 500), p95: try value(perMille: 950),
            p99: try value(perMille: 990))
    }
}

extension TotalsTables {
    /// A counter: its key (`metric|part|…`, ``TotalsKey``) and its count.
    struct Counter {
        static let columns = "key, n"

        var key: String
        var n: Int64

        /// The current row of a statement that selects ``columns``.
        init(_ st: Statement) {
            key = st.text(0)
            n = st.int(1)
        }
    }

    /// A value of a histogram (a duration, or its coarse bucket) and how many times it occurs.
    struct CountedValue {
        /// The columns of a histogram table whose value column is `value` (`v`, or `b`).
        static func columns(_ value: String) -> String { "\(value), n" }

        var value: Int64
        var n: Int64

        /// The current row of a statement that selects ``columns(_:)``.
        init(_ st: Statement) {
            value = st.int(0)
            n = st.int(1)
        }
    }

    /// The sorted durations of one metric's group in one time bucket.
    struct DurationList {
        static let columns = "metric, vals"

        /// `name|group` (``TotalsKey``).
        var metric: String
        /// The durations, as ``SortedValues`` text.
        var values: String

        /// The current row of a statement that selects ``columns``.
        init(_ st: Statement) {
            metric = st.text(0)
            values = st.text(1)
        }
    }
}
