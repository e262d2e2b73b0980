/// The windowed side of the totals: counters and sorted durations per time bucket, kept in the
/// same transaction as the all-time totals, and read back for the whole buckets of a window.
extension TotalsTables {
    private struct ValueBucket: Hashable {
        var width: Int64
        var bucket: Int64
        var metric: String
    }

    /// A batch's duration changes by bucket of the sorted lists (groups only: the distribution
    /// over all groups is computed from the groups' lists). No database access.
    static func prepareValues(_ delta: TotalsDelta) -> [(
        width: Int64, bucket: Int64, metric: String, change: [Int64: Int64]
    )] {
        var changes: [ValueBucket: [Int64: Int64]] = [:]
        var metricTexts: [String: String] = [:]
        for (key, n) in delta.histogram where n != 0 && key.minute != TotalsDelta.Key.untimed {
            guard let group = key.group else { continue }
            let metric = metricTexts.memo(group) { key.metricText }
            for width in TimeBuckets.valueLevels {
                let bucket = ValueBucket(width: width, bucket: TimeBuckets.floorDiv(key.minute, width), metric: metric)
                changes[bucket, default: [:]][key.value, default: 0] += n
            }
        }
        return changes.filter { $0.value.values.contains { $0 != 0 } }
            .map { (width: $0.key.width, bucket: $0.key.bucket, metric: $0.key.metric, change: $0.value) }
            .sorted { ($0.width, $0.bucket, $0.metric) < ($1.width, $1.bucket, $1.metric) }
    }

    /// Applies prepared duration changes to the sorted lists of their buckets.
    func writeValues(
        _ changes: [(width: Int64, bucket: Int64, metric: String, change: [Int64: Int64])],
        in db: ProjectionDatabase, generation g: Int64
    ) throws(ProjectionError) {
        guard !changes.isEmpty else { return }
        let t = bucketedValues(g)
        let p = db.sql.p
        let read = try db.statement("SELECT vals FROM \(t) WHERE w = \(p(1)) AND b = \(p(2)) AND metric = \(p(3))")
        let write = try db.statement(
            """
            INSERT INTO \(t)(w, b, metric, vals) VALUES(\(db.sql.parameters(4)))
            ON CONFLICT(w, b, metric) DO UPDATE SET vals = excluded.vals
            """)
        let delete = try db.statement("DELETE FROM \(t) WHERE w = \(p(1)) AND b = \(p(2)) AND metric = \(p(3))")
        for bucket in changes {
            read.reset()
            read.bind(1, bucket.width)
            read.bind(2, bucket.bucket)
            read.bind(3, bucket.metric)
            var values: [Int64] = []
            if try read.step() {
                guard let stored = SortedValues.decode(read.text(0)) else {
                    read.reset()
                    throw ProjectionError(.database, "read models: unreadable duration list in \(t)")
                }
                values = stored
            }
            read.reset()
            values = SortedValues.applying(bucket.change, to: values)
            let statement = values.isEmpty ? delete : write
            statement.reset()
            statement.bind(1, bucket.width)
            statement.bind(2, bucket.bucket)
            statement.bind(3, bucket.metric)
            if !values.isEmpty { statement.bind(4, SortedValues.encode(values)) }
            try statement.run()
        }
    }

    /// The counters of `metrics` summed over the whole buckets `runs` (keys as in ``counts``).
    func counts(
        _ metrics: [String], runs: [TimeBuckets.Run], in db: ProjectionDatabase,
        generation g: Int64
    ) throws(ProjectionError) -> [String: Int64] {
        let p = db.sql.p
        let st = try db.statement(
            """
            SELECT \(Counter.columns) FROM \(bucketed(g))
            WHERE m = \(p(1)) AND w = \(p(2)) AND b >= \(p(3)) AND b < \(p(4)) AND n != 0
            """)
        var result: [String: Int64] = [:]
        for metric in metrics {
            for run in runs {
                st.reset()
                st.bind(1, metric)
                st.bind(2, run.width)
                st.bind(3, run.first)
                st.bind(4, run.end)
                while try st.step() {
                    let counter = Counter(st)
                    result[counter.key, default: 0] += counter.n
                }
            }
        }
        return result
    }

    /// The sorted duration lists of the groups of histogram metric `name` (`chal`, `act`) in the
    /// whole buckets `runs`, by group.
    func valueLists(
        _ name: String, runs: [TimeBuckets.Run], in db: ProjectionDatabase,
        generation g: Int64
    ) throws(ProjectionError) -> [String: [[Int64]]] {
        let p = db.sql.p
        let st = try db.statement(
            """
            SELECT \(DurationList.columns) FROM \(bucketedValues(g))
            WHERE w = \(p(1)) AND b >= \(p(2)) AND b < \(p(3)) AND metric > \(p(4)) AND metric < \(p(5))
            """)
        var result: [String: [[Int64]]] = [:]
        for run in runs {
            st.reset()
            st.bind(1, run.width)
            st.bind(2, run.first)
            st.bind(3, run.end)
            st.bind(4, name + "|")
            st.bind(5, name + "}")
            while try st.step() {
                let list = DurationList(st)
                let key = TotalsKey.split(list.metric)
                guard key.count == 2, key[0] == name else { continue }
                guard let values = SortedValues.decode(list.values) else {
                    st.reset()
                    throw ProjectionError(.database, "read models: unreadable duration list in \(bucketedValues(g))")
                }
                result[key[1], default: []].append(values)
            }
        }
        return result
    }
}
