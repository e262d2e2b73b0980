import EventStore
import JournalCore
import Projections

extension ReplayReport {
    /// Folds every stream of `store` through position `until` (included) into this report:
    /// `replay --all`. `progress` is called with the events (or positions) done so far.
    package mutating func replay(
        _ store: any EventStore, untilPosition until: Int64, progress: (Int64) -> Void
    ) throws {
        // One pass over the log when the store can lend it (both backends can); else stream by stream.
        if let scanning = store as? any EventScanning {
            // Up to the head as it is now: a stream's recorded end, read later, is then its last
            // event within the scan, whatever is appended meanwhile.
            let head = try store.headPosition()
            var replay = LogReplay(store: scanning)
            let finals: ReplayFinals
            do {
                finals = try replay.run(untilPosition: min(until, head), progress: progress)
                self = try ReplayReport(finals: finals)
            } catch let error as ReplayRecordError {
                throw CLIError(.failure, error.description)
            }
        } else {
            var part = ReplayDigestPart()
            for stream in try store.streams(category: nil) {
                part.add(stream, try StreamReplay.fold(stream, in: store, untilPosition: until))
                progress(Int64(events + part.events))
                // Hashed a chunk at a time, so the memory does not grow with the streams.
                if part.bytes.count >= 1 << 20 {
                    absorb(part)
                    part = ReplayDigestPart()
                }
            }
            absorb(part)
        }
    }
}
