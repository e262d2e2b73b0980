import Domain

/// The analytics queries, answered from the read models (never by scanning the log): each first
/// catches its projections up to the head, then reads one consistent snapshot.
extension ProjectionEngine {
    public func otp(_ window: QueryWindow = .all) throws(ProjectionError) -> OTPReport {
        try snapshot([.threeDS, .card]) { () throws(ProjectionError) in try otpReport(window) }
    }

    public func timeouts(_ window: QueryWindow = .all) throws(ProjectionError) -> TimeoutsReport {
        try snapshot([.threeDS, .card]) { () throws(ProjectionError) in try timeoutsReport(window) }
    }

    public func funnel(_ window: QueryWindow = .all) throws(ProjectionError) -> FunnelReport {
        try snapshot([.threeDS]) { () throws(ProjectionError) in try funnelReport(window) }
    }

    public func challenges(_ window: QueryWindow = .all) throws(ProjectionError) -> ChallengesReport {
        try snapshot([.threeDS]) { () throws(ProjectionError) in try challengesReport(window) }
    }

    public func errors(_ window: QueryWindow = .all) throws(ProjectionError) -> ErrorsReport {
        try snapshot([.threeDS]) { () throws(ProjectionError) in try errorsReport(window) }
    }

    public func idv(_ window: QueryWindow = .all) throws(ProjectionError) -> IDVReport {
        try snapshot([.card]) { () throws(ProjectionError) in try idvReport(window) }
    }

    public func latency(_ window: QueryWindow = .all) throws(ProjectionError) -> LatencyReport {
        try snapshot([.threeDS, .card]) { () throws(ProjectionError) in try latencyReport(window) }
    }

    /// Events in the log with occurredAt in `window` (from the `events` projection).
    public func eventCount(_ window: QueryWindow = .all) throws(ProjectionError) -> Int64 {
        try snapshot([.events]) { () throws(ProjectionError) in try eventCountInSnapshot(window) }
    }

    func eventCountInSnapshot(_ window: QueryWindow) throws(ProjectionError) -> Int64 {
        try EventClockProjection.count(in: window, db: db, generation: generation(.events))
    }

    /// Catches `names` up, then runs `body` in a read transaction.
    func snapshot<R>(_ names: [ProjectionName], _ body: () throws(ProjectionError) -> R) throws(ProjectionError) -> R {
        try catchUp(names)
        return try db.readTransaction(body)
    }

    /// True when every event of the log lies in `window` (the whole log, or a window around
    /// all of it): then the answer is the whole-log one, read from the totals. Known only when
    /// the `events` projection is as far as the others (`run` catches all of them up).
    func coversTheLog(_ window: QueryWindow) throws(ProjectionError) -> Bool {
        if window == .all { return true }
        guard let events = try meta(.events), events.generation > 0 else { return false }
        for name in [ProjectionName.threeDS, .card] {
            if let other = try meta(name), other.generation > 0, other.checkpoint > events.checkpoint { return false }
        }
        guard let span = try EventClockProjection.span(db: db, generation: generation(.events)) else { return true }
        return window.lowerBound <= span.lowerBound && window.upperBound > span.upperBound
    }

    // MARK: - SQL helpers

    /// A millisecond range `[lo, hi)`.
    typealias Span = (lo: Int64, hi: Int64)

    /// The parameters a span's bounds are bound to, in this engine's spelling: every query of
    /// a span binds its `lo` first, then its `hi`.
    var spanLo: String { db.sql.p(1) }
    var spanHi: String { db.sql.p(2) }

    private struct GroupKey: Hashable {
        var a = "", b = "", c = "", d = "", e = ""
        var i = 0 as Int64, j = 0 as Int64
    }

    /// Runs a query whose rows are `texts` text columns, then `ints` integer columns (together at
    /// most 5 texts and 2 integers), then `values` integer columns (1 or 2); sums the values by
    /// the other columns and calls `group` per group with the key columns as text (integers in
    /// decimal) and the sums. The grouping is done here, in a hash table: SQLite's `GROUP BY`
    /// sorts every row through a temporary B-tree, several times slower over tens of thousands
    /// of rows; integer columns are read as integers (reading them as text costs an allocation
    /// per row). ``spanLo`` and ``spanHi`` are bound to the span's bounds.
    private func summed(
        _ sql: String, _ span: Span, texts: Int32, ints: Int32 = 0, values: Int32 = 1,
        _ group: ([String], Int64, Int64) -> Void
    ) throws(ProjectionError) {
        let st = try db.statement(sql)
        st.bind(1, span.lo)
        st.bind(2, span.hi)
        var sums: [GroupKey: (Int64, Int64)] = [:]
        let first = texts + ints
        while try st.step() {
            var key = GroupKey()
            if texts > 0 { key.a = st.optionalText(0) ?? "unknown" }
            if texts > 1 { key.b = st.optionalText(1) ?? "unknown" }
            if texts > 2 { key.c = st.optionalText(2) ?? "unknown" }
            if texts > 3 { key.d = st.optionalText(3) ?? "unknown" }
            if texts > 4 { key.e = st.optionalText(4) ?? "unknown" }
            if ints > 0 { key.i = st.int(texts) }
            if ints > 1 { key.j = st.int(texts + 1) }
            let value = st.int(first)
            let second = values > 1 ? st.int(first + 1) : 0
            sums[key, default: (0, 0)].0 += value
            sums[key, default: (0, 0)].1 += second
        }
        for (key, (value, second)) in sums {
            let columns =
                Array([key.a, key.b, key.c, key.d, key.e].prefix(Int(texts)))
                + Array([String(key.i), String(key.j)].prefix(Int(ints)))
            group(columns, value, second)
        }
    }

    /// ``summed(_:_:texts:ints:values:_:)`` with one summed column.
    private func summed(
        _ sql: String, _ span: Span, texts: Int32, ints: Int32 = 0,
        _ group: ([String], Int64) -> Void
    ) throws(ProjectionError) {
        try summed(sql, span, texts: texts, ints: ints, values: 1) { columns, n, _ in group(columns, n) }
    }

    /// Runs a query returning (group text, value) rows (in no particular order).
    private func values(_ sql: String, _ span: Span) throws(ProjectionError) -> [(String, Int64)] {
        let st = try db.statement(sql)
        st.bind(1, span.lo)
        st.bind(2, span.hi)
        var result: [(String, Int64)] = []
        while try st.step() { result.append((st.optionalText(0) ?? "unknown", st.int(1))) }
        return result
    }

    private static func outcomeKey(_ raw: Int64) -> String {
        ThreeDSTransaction.OutcomeKey(code: raw)?.rawValue ?? "unknown"
    }

    private static func span(_ window: QueryWindow) -> Span { (window.lowerBound, window.upperBound) }

    /// The whole buckets and the partial minutes of a window's counters.
    private static func countCover(_ window: QueryWindow) -> TimeBuckets.Cover {
        TimeBuckets.cover(window.lowerBound, window.upperBound, levels: TimeBuckets.countLevels)
    }

    /// The whole buckets and the partial minutes of a window's durations.
    private static func valueCover(_ window: QueryWindow) -> TimeBuckets.Cover {
        TimeBuckets.cover(window.lowerBound, window.upperBound, levels: TimeBuckets.valueLevels)
    }

    // MARK: - Reports
    //
    // A window that holds every event is answered from the all-time totals. Any other window
    // sums the time buckets of the whole minutes it covers (`…FromTotals(.buckets(…))`), then
    // adds what the fact and stream rows say about the at most two partial minutes its bounds
    // cut through (`…Facts(span, into:)`).

    func otpReport(_ window: QueryWindow) throws(ProjectionError) -> OTPReport {
        if try coversTheLog(window) { return try otpFromTotals() }
        let cover = Self.countCover(window)
        var report = try otpFromTotals(.buckets(cover.runs))
        for span in cover.partial {
            try otpFacts(span, into: &report)
            try otpFirstSubmissions(span, into: &report)
        }
        try otpStraddlers(window, into: &report)
        report.outcomes = report.outcomes.filter { $0.value != 0 }
        return report
    }

    private func otpFacts(_ span: Span, into report: inout OTPReport) throws(ProjectionError) {
        let f = ThreeDSProjection.factTable(try generation(.threeDS))
        let cf = CardProjection.factTable(try generation(.card))
        try summed(
            """
            SELECT a, 1 FROM \(f) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi) AND a IN ('submitText', 'resend')
            """, span, texts: 1
        ) { columns, n in
            if columns[0] == "submitText" { report.threeDSSubmissions += n } else { report.resends += n }
        }
        try summed(
            "SELECT a, 1 FROM \(cf) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi)",
            span, texts: 1
        ) { columns, n in
            report.tokenizationSubmissions += n
            report.byMethod[columns[0], default: 0] += n
        }
        try summed(
            "SELECT a, 1 FROM \(cf) WHERE kind = 2 AND t >= \(spanLo) AND t < \(spanHi)",
            span, texts: 1
        ) { columns, n in report.rejected[columns[0], default: 0] += n }
    }

    /// The distinct streams of `otp` (transactions with a submitText, journeys with an
    /// OTPSubmitted in the window) are not sums over buckets. A stream is counted once, under its
    /// current outcome, when its earliest submission lies in the window (the buckets keep
    /// `otptx` and `journey` at that time, moved when the outcome changes; the partial minutes
    /// ask the stream rows), or when that earliest submission lies before the window's start
    /// `lo` and a later one in the window (``otpStraddlers(_:into:)``).
    private func otpFirstSubmissions(_ span: Span, into report: inout OTPReport) throws(ProjectionError) {
        let s = ThreeDSProjection.streamTable(try generation(.threeDS))
        let f = ThreeDSProjection.factTable(try generation(.threeDS))
        let cs = CardProjection.streamTable(try generation(.card))
        let cf = CardProjection.factTable(try generation(.card))
        try summed(
            """
            SELECT outcome, 1 FROM \(s) WHERE sub_first_t >= \(spanLo) AND sid IN
              (SELECT sid FROM \(f) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi) AND a = 'submitText')
            """, span, texts: 0, ints: 1
        ) { columns, n in
            report.transactions += n
            report.outcomes[Self.outcomeKey(Int64(columns[0]) ?? -1), default: 0] += n
        }
        try summed(
            """
            SELECT outcome = 1, 1 FROM \(cs) WHERE otp_first_t >= \(spanLo) AND sid IN
              (SELECT sid FROM \(cf) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi))
            """, span, texts: 0, ints: 1
        ) { columns, n in
            report.journeys += n
            if columns[0] == "1" { report.activated += n }
        }
    }

    /// The streams with a submission before the window's start `lo` and one in the window:
    /// those whose submissions span at most ``LongSpanTable/limit`` have one in
    /// `[lo, lo + limit)` (fact rows of a few minutes, read, keeping the streams whose earliest
    /// submission is before `lo`); the others are in the long-span tables.
    private func otpStraddlers(_ window: QueryWindow, into report: inout OTPReport) throws(ProjectionError) {
        guard window.since != nil else { return }
        let lo = window.lowerBound
        let hi = window.upperBound
        let span: Span = (lo, min(hi, lo + LongSpanTable.limit))
        let g3 = try generation(.threeDS)
        let gc = try generation(.card)
        let s = ThreeDSProjection.streamTable(g3)
        let f = ThreeDSProjection.factTable(g3)
        let cs = CardProjection.streamTable(gc)
        let cf = CardProjection.factTable(gc)
        func transaction(_ outcome: Int64, _ n: Int64) {
            report.transactions += n
            report.outcomes[Self.outcomeKey(outcome), default: 0] += n
        }
        func journey(_ outcome: Int64, _ n: Int64) {
            report.journeys += n
            if outcome == CardDigitization.OutcomeKey.activated.code { report.activated += n }
        }
        try summed(
            """
            SELECT outcome, 1 FROM \(s) WHERE sub_first_t < \(spanLo)
              AND sub_last_t - sub_first_t <= \(LongSpanTable.limit)
              AND sid IN (SELECT sid FROM \(f) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi) AND a = 'submitText')
            """, span, texts: 0, ints: 1
        ) { columns, n in transaction(Int64(columns[0]) ?? -1, n) }
        try ThreeDSProjection.longSpans.straddlers(lo, hi, streamTable: s, in: db, generation: g3) {
            transaction($0, 1)
        }
        try summed(
            """
            SELECT outcome, 1 FROM \(cs) WHERE otp_first_t < \(spanLo)
              AND otp_last_t - otp_first_t <= \(LongSpanTable.limit)
              AND sid IN (SELECT sid FROM \(cf) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi))
            """, span, texts: 0, ints: 1
        ) { columns, n in journey(Int64(columns[0]) ?? -1, n) }
        try CardProjection.longSpans.straddlers(lo, hi, streamTable: cs, in: db, generation: gc) { journey($0, 1) }
    }

    func timeoutsReport(_ window: QueryWindow) throws(ProjectionError) -> TimeoutsReport {
        if try coversTheLog(window) { return try timeoutsFromTotals() }
        let cover = Self.countCover(window)
        var report = try timeoutsFromTotals(.buckets(cover.runs))
        for span in cover.partial { try timeoutsFacts(span, into: &report) }
        return report
    }

    private func timeoutsFacts(_ span: Span, into report: inout TimeoutsReport) throws(ProjectionError) {
        let s = ThreeDSProjection.streamTable(try generation(.threeDS))
        let f = ThreeDSProjection.factTable(try generation(.threeDS))
        let cf = CardProjection.factTable(try generation(.card))
        try summed(
            """
            SELECT s.ds, f.a, 1 FROM \(f) f JOIN \(s) s ON s.sid = f.sid
            WHERE f.kind = 3 AND f.t >= \(spanLo) AND f.t < \(spanHi)
            """, span, texts: 2
        ) { columns, n in
            report.challengeTimeouts += n
            report.byDirectoryServer[columns[0], default: 0] += n
            report.byUiType[columns[1], default: 0] += n
        }
        try summed(
            """
            SELECT kind, 1 FROM \(cf) WHERE ((kind = 2 AND a = 'expired') OR kind = 3)
              AND t >= \(spanLo) AND t < \(spanHi)
            """, span, texts: 0, ints: 1
        ) { columns, n in
            if columns[0] == "2" { report.otpExpired += n } else { report.activationsExpired += n }
        }
    }

    func funnelReport(_ window: QueryWindow) throws(ProjectionError) -> FunnelReport {
        if try coversTheLog(window) { return try funnelFromTotals() }
        let cover = Self.countCover(window)
        var report = try funnelFromTotals(.buckets(cover.runs))
        let s = ThreeDSProjection.streamTable(try generation(.threeDS))
        for span in cover.partial {
            try summed(
                """
                SELECT ds, mv, coalesce(ares, ''), started_t IS NOT NULL, outcome, 1 FROM \(s)
                WHERE created_t >= \(spanLo) AND created_t < \(spanHi)
                """, span, texts: 3, ints: 2
            ) { columns, n in
                report.count(
                    n, directoryServer: columns[0], messageVersion: columns[1], ares: columns[2],
                    challenged: columns[3] == "1", outcome: Self.outcomeKey(Int64(columns[4]) ?? -1))
            }
        }
        return report
    }

    func challengesReport(_ window: QueryWindow) throws(ProjectionError) -> ChallengesReport {
        if try coversTheLog(window) { return try challengesFromTotals() }
        let cover = Self.countCover(window)
        var report = try challengesFromTotals(.buckets(cover.runs))
        let s = ThreeDSProjection.streamTable(try generation(.threeDS))
        let f = ThreeDSProjection.factTable(try generation(.threeDS))
        for span in cover.partial {
            try summed(
                "SELECT a, 1 FROM \(f) WHERE kind = 2 AND t >= \(spanLo) AND t < \(spanHi)",
                span, texts: 1
            ) { columns, n in
                report.screens += n
                report.byUiType[columns[0], default: ChallengesReport.Slice()].screens += n
            }
            try summed(
                "SELECT b, a, 1 FROM \(f) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi)",
                span, texts: 2
            ) { columns, n in
                report.requests += n
                report.byUiType[columns[0], default: ChallengesReport.Slice()].requests[columns[1], default: 0] += n
            }
            try summed(
                """
                SELECT coalesce(last_ui, 'none'), outcome, 1, requests FROM \(s)
                WHERE ended_t >= \(spanLo) AND ended_t < \(spanHi) AND started_t IS NOT NULL
                """, span, texts: 1, ints: 1, values: 2
            ) { columns, n, rounds in
                let ui = columns[0]
                let outcome = Self.outcomeKey(Int64(columns[1]) ?? -1)
                report.challengesEnded += n
                report.rounds += rounds
                report.byUiType[ui, default: ChallengesReport.Slice()].challengesEnded += n
                report.byUiType[ui, default: ChallengesReport.Slice()].rounds += rounds
                report.byUiType[ui, default: ChallengesReport.Slice()].outcomes[outcome, default: 0] += n
            }
        }
        return report
    }

    func errorsReport(_ window: QueryWindow) throws(ProjectionError) -> ErrorsReport {
        if try coversTheLog(window) { return try errorsFromTotals() }
        let cover = Self.countCover(window)
        var report = try errorsFromTotals(.buckets(cover.runs))
        let f = ThreeDSProjection.factTable(try generation(.threeDS))
        for span in cover.partial {
            try summed(
                "SELECT a, b, 1 FROM \(f) WHERE kind = 4 AND t >= \(spanLo) AND t < \(spanHi)",
                span, texts: 2
            ) { columns, n in
                report.protocolErrors += n
                report.protocolByCode[columns[0], default: 0] += n
                report.protocolByComponent[columns[1], default: 0] += n
            }
            try summed(
                "SELECT a, 1 FROM \(f) WHERE kind = 5 AND t >= \(spanLo) AND t < \(spanHi)",
                span, texts: 1
            ) { columns, n in
                report.runtimeErrors += n
                report.runtimeByCode[columns[0], default: 0] += n
            }
        }
        return report
    }

    func idvReport(_ window: QueryWindow) throws(ProjectionError) -> IDVReport {
        if try coversTheLog(window) { return try idvFromTotals() }
        let cover = Self.countCover(window)
        var report = try idvFromTotals(.buckets(cover.runs))
        let cs = CardProjection.streamTable(try generation(.card))
        let cf = CardProjection.factTable(try generation(.card))
        for span in cover.partial {
            report.decisions +=
                try db.scalarInt(
                    "SELECT count(*) FROM \(cs) WHERE decision_t >= \(spanLo) AND decision_t < \(spanHi)",
                    [span.lo, span.hi]) ?? 0
            try summed(
                """
                SELECT a, b, kind, 1 FROM \(cf) WHERE kind IN (3, 4, 5, 6, 7, 8) AND t >= \(spanLo) AND t < \(spanHi)
                """, span, texts: 2, ints: 1
            ) { columns, n in
                let method = columns[0]
                var entry = report.byMethod[method] ?? IDVReport.Method()
                switch CardFact.Kind(rawValue: Int64(columns[2]) ?? 0) {
                case .activationExpired?: entry.expired += n
                case .offered?: entry.offered += n
                case .selected?:
                    entry.selected += n
                    report.selected += n
                    if columns[1] == "reselected" { entry.reselected += n }
                case .activated?:
                    entry.activated += n
                    report.activated += n
                case .failed?: entry.failed += n
                case .cancelled?: entry.cancelled += n
                case .otpSubmitted?, .otpRejected?, nil: break
                }
                report.byMethod[method] = entry
            }
        }
        let (all, byMethod) = try activationDistributions(window)
        report.timeToActivation = all
        for (method, distribution) in byMethod {
            report.byMethod[method, default: IDVReport.Method()].timeToActivation = distribution
        }
        return report
    }

    func latencyReport(_ window: QueryWindow) throws(ProjectionError) -> LatencyReport {
        if try coversTheLog(window) { return try latencyFromTotals() }
        var report = LatencyReport()
        let cover = Self.valueCover(window)
        let s = ThreeDSProjection.streamTable(try generation(.threeDS))
        var lists = try ThreeDSProjection.totals.valueLists(
            "chal", runs: cover.runs, in: db,
            generation: generation(.threeDS))
        for span in cover.partial {
            for (ds, values) in Self.grouped(
                try values(
                    """
                    SELECT ds, ended_t - started_t AS d FROM \(s)
                    WHERE started_t IS NOT NULL AND ended_t >= \(spanLo) AND ended_t < \(spanHi)
                    """, span))
            {
                lists[ds, default: []].append(values)
            }
        }
        report.challenge = SortedValues.distribution(lists.values.flatMap { $0 })
        for (ds, groupLists) in lists {
            let distribution = SortedValues.distribution(groupLists)
            if distribution.count > 0 { report.challengeByDirectoryServer[ds] = distribution }
        }
        let (all, byMethod) = try activationDistributions(window)
        report.activation = all
        report.activationByMethod = byMethod
        return report
    }

    /// Decision-to-activation durations of the activations in `window`: over all methods, and
    /// by method (methods with at least one).
    private func activationDistributions(_ window: QueryWindow) throws(ProjectionError)
        -> (Distribution, [String: Distribution])
    {
        let cover = Self.valueCover(window)
        let cf = CardProjection.factTable(try generation(.card))
        var lists = try CardProjection.totals.valueLists("act", runs: cover.runs, in: db, generation: generation(.card))
        for span in cover.partial {
            for (method, values) in Self.grouped(
                try values(
                    """
                    SELECT a, v FROM \(cf) WHERE kind = 6 AND v IS NOT NULL AND t >= \(spanLo) AND t < \(spanHi)
                    """, span))
            {
                lists[method, default: []].append(values)
            }
        }
        var byMethod: [String: Distribution] = [:]
        for (method, groupLists) in lists {
            let distribution = SortedValues.distribution(groupLists)
            if distribution.count > 0 { byMethod[method] = distribution }
        }
        return (SortedValues.distribution(lists.values.flatMap { $0 }), byMethod)
    }

    /// Splits (group, value) pairs into sorted value lists per group.
    private static func grouped(_ pairs: [(String, Int64)]) -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        for (group, value) in pairs { result[group, default: []].append(value) }
        for key in result.keys { result[key]!.sort() }
        return result
    }
}
