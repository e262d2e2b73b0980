/// Whole-log answers, read from the totals the folds keep (a few hundred rows, whatever the
/// log's length). Windowed answers come from the fact and stream rows instead
/// (`ProjectionEngine+Queries.swift`); the tests hold both to the same reference.
extension ProjectionEngine {
    /// Where counters are read from: the all-time totals, or the time buckets of a window's
    /// whole minutes, hours and days.
    enum TotalsSource {
        case all
        case buckets([TimeBuckets.Run])
    }

    private func threeDSTotals(_ metrics: [String], _ source: TotalsSource) throws(ProjectionError) -> [[String]: Int64]
    {
        try totals(ThreeDSProjection.totals, metrics, source, generation(.threeDS))
    }

    private func cardTotals(_ metrics: [String], _ source: TotalsSource) throws(ProjectionError) -> [[String]: Int64] {
        try totals(CardProjection.totals, metrics, source, generation(.card))
    }

    private func totals(
        _ tables: TotalsTables, _ metrics: [String], _ source: TotalsSource,
        _ g: Int64
    ) throws(ProjectionError) -> [[String]: Int64] {
        switch source {
        case .all: return split(try tables.counts(metrics, in: db, generation: g))
        case let .buckets(runs):
            return split(try tables.counts(metrics, runs: runs, in: db, generation: g)).filter { $0.value != 0 }
        }
    }

    private func split(_ counts: [String: Int64]) -> [[String]: Int64] {
        var result: [[String]: Int64] = [:]
        for (key, n) in counts { result[TotalsKey.split(key), default: 0] += n }
        return result
    }

    func otpFromTotals(_ source: TotalsSource = .all) throws(ProjectionError) -> OTPReport {
        var report = OTPReport()
        for (key, n) in try threeDSTotals(["req", "otptx"], source) {
            switch (key.first, key.count) {
            case ("req", 3):
                if key[1] == "submitText" { report.threeDSSubmissions += n }
                if key[1] == "resend" { report.resends += n }
            case ("otptx", 2):
                report.transactions += n
                report.outcomes[key[1], default: 0] += n
            default: break
            }
        }
        for (key, n) in try cardTotals(["otp", "rej", "journey"], source) {
            switch (key.first, key.count) {
            case ("otp", 2):
                report.tokenizationSubmissions += n
                report.byMethod[key[1], default: 0] += n
            case ("rej", 2): report.rejected[key[1], default: 0] += n
            case ("journey", 2):
                report.journeys += n
                if key[1] == "1" { report.activated += n }
            default: break
            }
        }
        report.outcomes = report.outcomes.nonZero
        report.byMethod = report.byMethod.nonZero
        report.rejected = report.rejected.nonZero
        return report
    }

    func timeoutsFromTotals(_ source: TotalsSource = .all) throws(ProjectionError) -> TimeoutsReport {
        var report = TimeoutsReport()
        for (key, n) in try threeDSTotals(["timeout"], source) where key.first == "timeout" && key.count == 3 {
            report.challengeTimeouts += n
            report.byDirectoryServer[key[1], default: 0] += n
            report.byUiType[key[2], default: 0] += n
        }
        for (key, n) in try cardTotals(["rej", "aexp"], source) {
            if key == ["rej", "expired"] { report.otpExpired += n }
            if key.first == "aexp" { report.activationsExpired += n }
        }
        report.byDirectoryServer = report.byDirectoryServer.nonZero
        report.byUiType = report.byUiType.nonZero
        return report
    }

    func funnelFromTotals(_ source: TotalsSource = .all) throws(ProjectionError) -> FunnelReport {
        var report = FunnelReport()
        for (key, n) in try threeDSTotals(["funnel"], source) where key.first == "funnel" && key.count == 6 && n != 0 {
            report.count(
                n, directoryServer: key[1], messageVersion: key[2], ares: key[3], challenged: key[4] == "1",
                outcome: key[5])
        }
        return report
    }

    func challengesFromTotals(_ source: TotalsSource = .all) throws(ProjectionError) -> ChallengesReport {
        var report = ChallengesReport()
        for (key, n) in try threeDSTotals(["screen", "req", "ended", "rounds"], source) where n != 0 {
            switch (key.first, key.count) {
            case ("screen", 2):
                report.screens += n
                report.byUiType[key[1], default: ChallengesReport.Slice()].screens += n
            case ("req", 3):
                report.requests += n
                report.byUiType[key[2], default: ChallengesReport.Slice()].requests[key[1], default: 0] += n
            case ("ended", 3):
                report.challengesEnded += n
                report.byUiType[key[1], default: ChallengesReport.Slice()].challengesEnded += n
                report.byUiType[key[1], default: ChallengesReport.Slice()].outcomes[key[2], default: 0] += n
            case ("rounds", 2):
                report.rounds += n
                report.byUiType[key[1], default: ChallengesReport.Slice()].rounds += n
            default: break
            }
        }
        return report
    }

    func errorsFromTotals(_ source: TotalsSource = .all) throws(ProjectionError) -> ErrorsReport {
        var report = ErrorsReport()
        for (key, n) in try threeDSTotals(["perr", "rerr"], source) where n != 0 {
            switch (key.first, key.count) {
            case ("perr", 3):
                report.protocolErrors += n
                report.protocolByCode[key[1], default: 0] += n
                report.protocolByComponent[key[2], default: 0] += n
            case ("rerr", 2):
                report.runtimeErrors += n
                report.runtimeByCode[key[1], default: 0] += n
            default: break
            }
        }
        return report
    }

    func idvFromTotals(_ source: TotalsSource = .all) throws(ProjectionError) -> IDVReport {
        var report = IDVReport()
        func method(_ kind: String, _ update: (inout IDVReport.Method) -> Void) {
            update(&report.byMethod[kind, default: IDVReport.Method()])
        }
        for (key, n) in try cardTotals(["decisions", "offered", "sel", "act", "fail", "cancel", "aexp"], source)
        where n != 0 {
            switch (key.first, key.count) {
            case ("decisions", 1): report.decisions += n
            case ("offered", 2): method(key[1]) { $0.offered += n }
            case ("sel", 3):
                report.selected += n
                method(key[1]) { entry in
                    entry.selected += n
                    if key[2] == "reselected" { entry.reselected += n }
                }
            case ("act", 2):
                report.activated += n
                method(key[1]) { $0.activated += n }
            case ("fail", 2): method(key[1]) { $0.failed += n }
            case ("cancel", 2): method(key[1]) { $0.cancelled += n }
            case ("aexp", 2): method(key[1]) { $0.expired += n }
            default: break
            }
        }
        guard case .all = source else { return report } // a window's durations: `idvReport`
        let g = try generation(.card)
        report.timeToActivation = try CardProjection.totals.distribution("act", in: db, generation: g)
        for metric in try CardProjection.totals.metrics(prefix: "act", in: db, generation: g) {
            let key = TotalsKey.split(metric)
            guard key.count == 2, key[0] == "act" else { continue }
            report.byMethod[key[1], default: IDVReport.Method()].timeToActivation =
                try CardProjection.totals.distribution(metric, in: db, generation: g)
        }
        return report
    }

    func latencyFromTotals() throws(ProjectionError) -> LatencyReport {
        var report = LatencyReport()
        let g3 = try generation(.threeDS)
        report.challenge = try ThreeDSProjection.totals.distribution("chal", in: db, generation: g3)
        for metric in try ThreeDSProjection.totals.metrics(prefix: "chal", in: db, generation: g3) {
            let key = TotalsKey.split(metric)
            guard key.count == 2, key[0] == "chal" else { continue }
            report.challengeByDirectoryServer[key[1]] = try ThreeDSProjection.totals.distribution(
                metric, in: db,
                generation: g3)
        }
        let gc = try generation(.card)
        report.activation = try CardProjection.totals.distribution("act", in: db, generation: gc)
        for metric in try CardProjection.totals.metrics(prefix: "act", in: db, generation: gc) {
            let key = TotalsKey.split(metric)
            guard key.count == 2, key[0] == "act" else { continue }
            report.activationByMethod[key[1]] = try CardProjection.totals.distribution(metric, in: db, generation: gc)
        }
        return report
    }
}
