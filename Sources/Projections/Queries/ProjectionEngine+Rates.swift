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
            SELECT \(TransactionRateRow.columns) FROM \(s) WHERE created_t >= \(spanLo) AND created_t < \(spanHi)
            """)
        transactions.bind(1, span.lo)
        transactions.bind(2, span.hi)
        while try transactions.step() {
            let row = TransactionRateRow(transactions)
            report.countTransactions(1, ares: row.ares, challenged: row.challenged, outcome: row.outcome)
        }
        let cs = CardProjection.streamTable(try generation(.card))
        let journeys = try db.statement(
            """
            SELECT \(CardStreamRow.cohortColumns) FROM \(cs) WHERE start_t >= \(spanLo) AND start_t < \(spanHi)
            """)
        journeys.bind(1, span.lo)
        journeys.bind(2, span.hi)
        while try journeys.step() {
            let key = CardFold.cohortKey(CardStreamRow(cohortColumnsOf: journeys))
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

/// A 3DS stream's columns a rate counts: the columns it is read from, and its decoding.
private struct TransactionRateRow {
    static let columns = "coalesce(ares, ''), started_t IS NOT NULL, outcome"

    var ares: String
    var challenged: Bool
    var outcome: ThreeDSTransaction.OutcomeKey

    /// The current row of a statement that selects ``columns``.
    init(_ st: Statement) {
        ares = st.text(0)
        challenged = st.int(1) != 0
        outcome = ThreeDSTransaction.OutcomeKey(code: st.int(2)) ?? .open
    }
}

extension CardStreamRow {
    /// The columns of a card stream row its cohort key needs (``CardFold/cohortKey(_:)``).
    fileprivate static let cohortColumns = "eligible, outcome, decision_t, sel_types, selected"

    /// A row holding the cohort columns of a statement's current row (``cohortColumns``).
    fileprivate init(cohortColumnsOf st: Statement) {
        self.init(sid: 0, name: "")
        eligible = st.int(0) != 0
        outcome = CardDigitization.OutcomeKey(code: st.int(1)) ?? .open
        decisionAt = st.optionalInt(2)
        selectedTypes = st.optionalText(3).map { $0.split(separator: ",").map(String.init) } ?? []
        selectedKind = st.optionalText(4)
    }
}
