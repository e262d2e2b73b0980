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

    /// Runs a query whose rows are a `Row`'s columns (``GroupedRow/columns``), then `values`
    /// integer columns (1 or 2); sums the values by row and calls `group` per distinct row with
    /// the sums. ``spanLo`` and ``spanHi`` are bound to the span's bounds.
    private func summed<Row: GroupedRow>(
        _ row: Row.Type, _ sql: String, _ span: Span, values: Int32 = 1, _ group: (Row, Int64, Int64) -> Void
    ) throws(ProjectionError) {
        let st = try db.statement(sql)
        st.bind(1, span.lo)
        st.bind(2, span.hi)
        var sums: [Row: (Int64, Int64)] = [:]
        let first = Row.columnCount
        while try st.step() {
            let value = st.int(first)
            let second = values > 1 ? st.int(first + 1) : 0
            let key = Row(st)
            sums[key, default: (0, 0)].0 += value
            sums[key, default: (0, 0)].1 += second
        }
        for (row, (value, second)) in sums { group(row, value, second) }
    }

    /// ``summed(_:_:_:values:_:)`` with one summed column.
    private func summed<Row: GroupedRow>(
        _ row: Row.Type, _ sql: String, _ span: Span, _ group: (Row, Int64) -> Void
    ) throws(ProjectionError) {
        try summed(row, sql, span, values: 1) { row, n, _ in group(row, n) }
    }

    /// Runs a query returning (group, duration) rows (in no particular order).
    private func durations(_ sql: String, _ span: Span) throws(ProjectionError) -> [GroupedDuration] {
        let st = try db.statement(sql)
        st.bind(1, span.lo)
        st.bind(2, span.hi)
        var result: [GroupedDuration] = []
        while try st.step() { result.append(GroupedDuration(st)) }
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
            FactLabel.self,
            """
            SELECT \(FactLabel.columns), 1 FROM \(f) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi)
              AND a IN ('submitText', 'resend')
            """, span
        ) { request, n in
            if request.label == "submitText" { report.threeDSSubmissions += n } else { report.resends += n }
        }
        try summed(
            FactLabel.self,
            "SELECT \(FactLabel.columns), 1 FROM \(cf) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi)",
            span
        ) { method, n in
            report.tokenizationSubmissions += n
            report.byMethod[method.label, default: 0] += n
        }
        try summed(
            FactLabel.self,
            "SELECT \(FactLabel.columns), 1 FROM \(cf) WHERE kind = 2 AND t >= \(spanLo) AND t < \(spanHi)",
            span
        ) { reason, n in report.rejected[reason.label, default: 0] += n }
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
            StreamOutcomeCode.self,
            """
            SELECT \(StreamOutcomeCode.columns), 1 FROM \(s) WHERE sub_first_t >= \(spanLo) AND sid IN
              (SELECT sid FROM \(f) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi) AND a = 'submitText')
            """, span
        ) { transaction, n in
            report.transactions += n
            report.outcomes[Self.outcomeKey(transaction.code), default: 0] += n
        }
        try summed(
            JourneyActivation.self,
            """
            SELECT \(JourneyActivation.columns), 1 FROM \(cs) WHERE otp_first_t >= \(spanLo) AND sid IN
              (SELECT sid FROM \(cf) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi))
            """, span
        ) { journey, n in
            report.journeys += n
            if journey.activated { report.activated += n }
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
            StreamOutcomeCode.self,
            """
            SELECT \(StreamOutcomeCode.columns), 1 FROM \(s) WHERE sub_first_t < \(spanLo)
              AND sub_last_t - sub_first_t <= \(LongSpanTable.limit)
              AND sid IN (SELECT sid FROM \(f) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi) AND a = 'submitText')
            """, span
        ) { stream, n in transaction(stream.code, n) }
        try ThreeDSProjection.longSpans.straddlers(lo, hi, streamTable: s, in: db, generation: g3) {
            transaction($0, 1)
        }
        try summed(
            StreamOutcomeCode.self,
            """
            SELECT \(StreamOutcomeCode.columns), 1 FROM \(cs) WHERE otp_first_t < \(spanLo)
              AND otp_last_t - otp_first_t <= \(LongSpanTable.limit)
              AND sid IN (SELECT sid FROM \(cf) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi))
            """, span
        ) { stream, n in journey(stream.code, n) }
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
            ChallengeTimeout.self,
            """
            SELECT \(ChallengeTimeout.columns), 1 FROM \(f) f JOIN \(s) s ON s.sid = f.sid
            WHERE f.kind = 3 AND f.t >= \(spanLo) AND f.t < \(spanHi)
            """, span
        ) { timeout, n in
            report.challengeTimeouts += n
            report.byDirectoryServer[timeout.directoryServer, default: 0] += n
            report.byUiType[timeout.uiType, default: 0] += n
        }
        try summed(
            CardFactOfKind.self,
            """
            SELECT \(CardFactOfKind.columns), 1 FROM \(cf) WHERE ((kind = 2 AND a = 'expired') OR kind = 3)
              AND t >= \(spanLo) AND t < \(spanHi)
            """, span
        ) { fact, n in
            if fact.kind == 2 { report.otpExpired += n } else { report.activationsExpired += n }
        }
    }

    func funnelReport(_ window: QueryWindow) throws(ProjectionError) -> FunnelReport {
        if try coversTheLog(window) { return try funnelFromTotals() }
        let cover = Self.countCover(window)
        var report = try funnelFromTotals(.buckets(cover.runs))
        let s = ThreeDSProjection.streamTable(try generation(.threeDS))
        for span in cover.partial {
            try summed(
                FunnelEntry.self,
                """
                SELECT \(FunnelEntry.columns), 1 FROM \(s) WHERE created_t >= \(spanLo) AND created_t < \(spanHi)
                """, span
            ) { entry, n in
                report.count(
                    n, directoryServer: entry.directoryServer, messageVersion: entry.messageVersion, ares: entry.ares,
                    challenged: entry.challenged, outcome: Self.outcomeKey(entry.outcome))
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
                FactLabel.self,
                "SELECT \(FactLabel.columns), 1 FROM \(f) WHERE kind = 2 AND t >= \(spanLo) AND t < \(spanHi)", span
            ) { screen, n in
                report.screens += n
                report.byUiType[screen.label, default: ChallengesReport.Slice()].screens += n
            }
            try summed(
                ChallengeRequest.self,
                "SELECT \(ChallengeRequest.columns), 1 FROM \(f) WHERE kind = 1 AND t >= \(spanLo) AND t < \(spanHi)",
                span
            ) { request, n in
                report.requests += n
                let ui = request.uiType
                report.byUiType[ui, default: ChallengesReport.Slice()].requests[request.request, default: 0] += n
            }
            try summed(
                EndedChallenge.self,
                """
                SELECT \(EndedChallenge.columns), 1, requests FROM \(s)
                WHERE ended_t >= \(spanLo) AND ended_t < \(spanHi) AND started_t IS NOT NULL
                """, span, values: 2
            ) { challenge, n, rounds in
                let ui = challenge.uiType
                let outcome = Self.outcomeKey(challenge.outcome)
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
                ProtocolErrorFact.self,
                "SELECT \(ProtocolErrorFact.columns), 1 FROM \(f) WHERE kind = 4 AND t >= \(spanLo) AND t < \(spanHi)",
                span
            ) { error, n in
                report.protocolErrors += n
                report.protocolByCode[error.code, default: 0] += n
                report.protocolByComponent[error.component, default: 0] += n
            }
            try summed(
                FactLabel.self,
                "SELECT \(FactLabel.columns), 1 FROM \(f) WHERE kind = 5 AND t >= \(spanLo) AND t < \(spanHi)", span
            ) { error, n in
                report.runtimeErrors += n
                report.runtimeByCode[error.label, default: 0] += n
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
                IDVFact.self,
                """
                SELECT \(IDVFact.columns), 1 FROM \(cf) WHERE kind IN (3, 4, 5, 6, 7, 8) AND t >= \(spanLo)
                  AND t < \(spanHi)
                """, span
            ) { fact, n in
                let method = fact.method
                var entry = report.byMethod[method] ?? IDVReport.Method()
                switch CardFact.Kind(rawValue: fact.kind) {
                case .activationExpired?: entry.expired += n
                case .offered?: entry.offered += n
                case .selected?:
                    entry.selected += n
                    report.selected += n
                    if fact.detail == "reselected" { entry.reselected += n }
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
                try durations(
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
                try durations(
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

    /// Splits grouped durations into sorted lists per group.
    private static func grouped(_ durations: [GroupedDuration]) -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        for duration in durations { result[duration.group, default: []].append(duration.milliseconds) }
        for key in result.keys { result[key]!.sort() }
        return result
    }
}
