import Domain

/// `rates` (spec §7) from the read models: 3DS transactions from the `funnel` counters
/// (kept at each stream's `TransactionCreated`), journeys from the card model's `cohort`
/// counters (kept at each stream's `EligibilityChecked`); both are moved when the stream's
/// outcome changes, so a bucket always describes its streams by their whole history.
extension ProjectionEngine {
    public func rates(_ window: QueryWindow = .all) throws(ProjectionError) -> RatesReport {
        try snapshot([.threeDS, .card]) { () throws(ProjectionError) in try ratesReport(window) }
    }

    func ratesReport(_ window: QueryWindow) throws(ProjectionError) -> RatesReport {
        if try coversTheLog(window) { return try ratesFromTotals(.all) }
        let cover = TimeBuckets.cover(window.lowerBound, window.upperBound, levels: TimeBuckets.countLevels)
        var report = try ratesFromTotals(.buckets(cover.runs))
        for span in cover.partial { try ratesFromRows(span, into: &report) }
        report.dropEmptyMethods()
        return report
    }

    private func ratesFromTotals(_ source: TotalsSource) throws(ProjectionError) -> RatesReport {
        var report = RatesReport()
        let g3 = try generation(.threeDS)
        let gc = try generation(.card)
        let transactions: [String: Int64]
        let journeys: [String: Int64]
        switch source {
        case .all:
            transactions = try ThreeDSProjection.totals.counts(["funnel"], in: db, generation: g3)
            journeys = try CardProjection.totals.counts(["cohort"], in: db, generation: gc)
        case let .buckets(runs):
            transactions = try ThreeDSProjection.totals.counts(["funnel"], runs: runs, in: db, generation: g3)
            journeys = try CardProjection.totals.counts(["cohort"], runs: runs, in: db, generation: gc)
        }
        for (text, n) in transactions where n != 0 {
            let key = TotalsKey.split(text)
            guard key.count == 6, key[0] == "funnel" else { continue }
            report.countTransactions(n, ares: key[3], challenged: key[4] == "1", outcome: Self.outcome(key: key[5]))
        }
        for (text, n) in journeys where n != 0 {
            let key = TotalsKey.split(text)
            guard key.count == 6, key[0] == "cohort" else { continue }
            report.countJourneys(
                n, eligible: key[1] == "1", decision: key[2], activated: key[3] == "1",
                selectedTypes: key[4].split(separator: ","), lastType: key[5])
        }
        report.dropEmptyMethods()
        return report
    }

    /// The streams that started in a partial minute `[lo, hi)`, from their rows (indexed by
    /// `created_t` and `start_t`).
    private func ratesFromRows(_ span: Span, into report: inout RatesReport) throws(ProjectionError) {
        let s = ThreeDSProjection.streamTable(try generation(.threeDS))
        let transactions = try db.statement(
            """
            SELECT coalesce(ares, ''), started_t IS NOT NULL, outcome FROM \(s)
            WHERE created_t >= \(spanLo) AND created_t < \(spanHi)
            """)
        transactions.bind(1, span.lo)
        transactions.bind(2, span.hi)
        while try transactions.step() {
            report.countTransactions(
                1, ares: transactions.text(0), challenged: transactions.int(1) != 0,
                outcome: ThreeDSTransaction.OutcomeKey(code: transactions.int(2)) ?? .open)
        }
        let cs = CardProjection.streamTable(try generation(.card))
        let journeys = try db.statement(
            """
            SELECT eligible, outcome, decision_t, sel_types, selected FROM \(cs)
            WHERE start_t >= \(spanLo) AND start_t < \(spanHi)
            """)
        journeys.bind(1, span.lo)
        journeys.bind(2, span.hi)
        while try journeys.step() {
            var row = CardStreamRow(sid: 0, name: "")
            row.eligible = journeys.int(0) != 0
            row.outcome = CardDigitization.OutcomeKey(code: journeys.int(1)) ?? .open
            row.decisionAt = journeys.optionalInt(2)
            row.selectedTypes = journeys.optionalText(3).map { $0.split(separator: ",").map(String.init) } ?? []
            row.selectedKind = journeys.optionalText(4)
            let key = CardFold.cohortKey(row)
            report.countJourneys(
                1, eligible: key.eligible == "1", decision: key.decision, activated: key.activated == "1",
                selectedTypes: key.selectedTypes.split(separator: ","), lastType: key.lastType)
        }
    }

    /// The earliest and latest cohort start (`TransactionCreated`, `EligibilityChecked`), nil
    /// when no stream has started.
    func cohortSpan() throws(ProjectionError) -> ClosedRange<Int64>? {
        let s = ThreeDSProjection.streamTable(try generation(.threeDS))
        let cs = CardProjection.streamTable(try generation(.card))
        let firsts = [
            try db.scalarInt("SELECT min(created_t) FROM \(s)"), try db.scalarInt("SELECT min(start_t) FROM \(cs)")
        ]
        let lasts = [
            try db.scalarInt("SELECT max(created_t) FROM \(s)"), try db.scalarInt("SELECT max(start_t) FROM \(cs)")
        ]
        guard let first = firsts.compactMap({ $0 }).min(), let last = lasts.compactMap({ $0 }).max() else { return nil }
        return first...last
    }

    private static func outcome(key: String) -> ThreeDSTransaction.OutcomeKey {
        ThreeDSTransaction.OutcomeKey(rawValue: key) ?? .open
    }
}
