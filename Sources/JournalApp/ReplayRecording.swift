import EventStore
import JournalCore
import Projections

/// `replay --all --record FILE` and `replay --all|--bundle … --against FILE` (spec §12): a
/// replay that also writes a record of every stream's states, or compares them with such a
/// record. The engine is ``ReplayRun`` (Projections); this is its use on a journal or a bundle.
package enum ReplayRecording {
    package enum Mode: Equatable {
        /// Write a record to the file at the path (mode 0600).
        case record(path: String)
        /// Compare with the record in the file at the path.
        case against(path: String)
    }

    /// `--all` with `--record` or `--against`: one pass over the log through position `until`
    /// (included). Recording gives what `replay --all` prints; comparing, the comparison.
    package static func replayAll(
        _ store: any EventStore, untilPosition until: Int64, _ mode: Mode,
        progress: (_ total: Int64?) -> ProgressReporter?
    ) throws -> any CommandReport {
        guard let scanning = store as? any EventScanning else {
            throw CLIError(.failure, "this journal's store cannot be scanned in one pass")
        }
        let run = try makeRun(mode)
        let head = try store.headPosition()
        let progress = progress(min(head, until))
        var scan = ReplayLogScan(store: scanning)
        do {
            // Up to the head as it is now: a stream's recorded end, read later, is then its last
            // event within the scan, whatever is appended meanwhile.
            try scan.feed(run, untilPosition: min(until, head)) { position in
                progress?.update(done: position, events: position)
            }
        } catch {
            run.abandon()
            progress?.finish(done: run.events, events: run.events)
            throw error
        }
        progress?.finish(done: run.events, events: run.events)
        switch mode {
        case .record: return try recorded(run, untilPosition: until)
        case .against: return try comparison(run)
        }
    }

    /// `--bundle FILE --key VKEY --against RECORD`: the bundle's stream, checked, against the record.
    package static func compare(_ bundle: BundleStream, against path: String) throws -> ReplayComparisonReport {
        let stream = bundle.stream
        let run = try makeRun(.against(path: path), only: stream.rawValue)
        for event in bundle.events {
            let fed = event.data.withUnsafeBytes { data in
                Result { () throws(ReplayRecordError) in
                    try run.feed(
                        key: 0, name: { stream.rawValue }, position: event.position, type: event.type, data: data,
                        occurredAt: event.occurredAt)
                }
            }
            if case let .failure(error) = fed { throw CLIError(.failure, error.description) }
        }
        return try comparison(run)
    }

    private static func makeRun(_ mode: Mode, only: String? = nil) throws(CLIError) -> ReplayRun<DomainReplayFold> {
        do {
            switch mode {
            case let .record(path): return try ReplayRun(.record(path: path), rules: RulesIdentifier.current)
            case let .against(path):
                return try ReplayRun(.compare(path: path), rules: RulesIdentifier.current, only: only)
            }
        } catch {
            throw CLIError(.failure, error.description)
        }
    }

    /// The record written, and the streams' outcomes as `replay --all` reports them.
    private static func recorded(_ run: ReplayRun<DomainReplayFold>, untilPosition until: Int64) throws -> ReplaySummary
    {
        do {
            try run.finishRecord()
        } catch {
            throw CLIError(.failure, error.description)
        }
        let report: ReplayReport
        do {
            report = try ReplayReport(finalOutcomesOf: run)
        } catch let error as ReplayRecordError {
            throw CLIError(.failure, error.description)
        }
        return ReplaySummary(report, untilPosition: until)
    }

    private static func comparison(_ run: ReplayRun<DomainReplayFold>) throws(CLIError) -> ReplayComparisonReport {
        do {
            return ReplayComparisonReport(comparison: try run.finishComparison())
        } catch {
            throw CLIError(.failure, error.description)
        }
    }
}
