import EventStore
import Foundation
import JournalCore

/// `close-streams`: the appender that races the importers. Each stream of the list is imported
/// by another process with 3 events (versions 0–2); this closes it with `TransactionClosed`
/// expecting version 2, which conflicts until the importer has committed.
///
/// Output, one line per attempt:
///   `closed STREAM POSITION`          the close was appended (after the importer's events)
///   `conflict STREAM early ACTUAL`    the stream was not at version 2 yet (ACTUAL: its version or
///                                    `none`); the pass ends there and resumes 50 ms later
///   `conflict STREAM stale ACTUAL`    a second close with another id, expecting version 2 again
///   `retried STREAM POSITION WRITTEN` the first close appended again: an idempotent no-op
struct StreamCloser {
    let path: String
    let streams: [String]
    let deadline: Double

    init(_ options: HarnessOptions) throws(HarnessError) {
        path = try options.string("db")
        let file = try options.string("streams")
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw .failure("cannot read \(file)")
        }
        streams = text.split(separator: "\n").map(String.init)
        deadline = Double(try options.int("deadline-seconds", default: 120))
    }

    func run() throws -> Int32 {
        let store = try SQLiteEventStore(path: path, configuration: .init(busyTimeoutMilliseconds: 120_000))
        let start = Date()
        var pending = Array(streams.enumerated())
        var conflicts = 0
        while !pending.isEmpty {
            guard Date().timeIntervalSince(start) < deadline else {
                throw HarnessError.failure("\(pending.count) streams were never imported within \(Int(deadline)) s")
            }
            var next: [(offset: Int, element: String)] = []
            // A pass stops at its first conflict (that importer has not committed yet) and
            // tries again 50 ms later, so conflicts stay few while importers run.
            var done = 0
            attempts: for (index, name) in pending {
                done += 1
                let stream = try StreamName(name)
                let close = event(high: 0xC105_E000, index)
                switch attempt(store, close, stream) {
                case let .success(result):
                    Output.line("closed \(name) \(result.positions[0])")
                case let .failure(error) where error.code == .conflict:
                    conflicts += 1
                    Output.line("conflict \(name) early \(error.actualVersion.map(String.init) ?? "none")")
                    Output.error("error: concurrency conflict: \(error.message)")
                    next.append((index, name))
                    break attempts
                case let .failure(error):
                    throw error
                }
                switch attempt(store, event(high: 0x57A1_E000, index), stream) {
                case .success:
                    throw HarnessError.failure("a stale append to \(name) expecting version 2 was accepted")
                case let .failure(error) where error.code == .conflict:
                    conflicts += 1
                    Output.line("conflict \(name) stale \(error.actualVersion.map(String.init) ?? "none")")
                    Output.error("error: concurrency conflict: \(error.message)")
                case let .failure(error):
                    throw error
                }
                let retried = try attempt(store, close, stream).get()
                Output.line("retried \(name) \(retried.positions[0]) \(retried.written)")
            }
            pending = next + pending.dropFirst(done)
            if !pending.isEmpty { usleep(50_000) }
        }
        return conflicts > 0 ? 5 : 0
    }

    /// One append expecting version 2.
    private func attempt(_ store: SQLiteEventStore, _ event: ProposedEvent, _ stream: StreamName)
        -> Result<AppendResult, EventStoreError>
    {
        do {
            return .success(try store.append([event], to: stream, expectedVersion: .exact(2)))
        } catch {
            return .failure(error)
        }
    }

    private func event(high: UInt32, _ index: Int) -> ProposedEvent {
        ProposedEvent(
            id: ProbeEvents.uuid(high: high, low: UInt64(index)), type: "TransactionClosed",
            occurredAt: Timestamp(millisecondsSinceEpoch: ProbeEvents.baseTime + 86_400_000 + Int64(index)),
            data: Array("{}".utf8))
    }
}
