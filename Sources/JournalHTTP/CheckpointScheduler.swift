import EventStore
import JournalApp
import JournalCore
import Synchronization

/// `journal serve --key FILE [--cosign-with FILE] [--checkpoint-every SECONDS]`: while events
/// arrive, signs and keeps a checkpoint of the head at most once per period, and has the
/// witnesses of the policy cosign it (spec §11), so that a live journal is witnessed without
/// a cron job. One thread; each round is one JSON line on stderr, next to the access log.
package final class CheckpointScheduler: Sendable {
    private let store: any TransactionalEventStore
    private let signer: NoteSigner
    private let cosigner: Cosigner?
    private let periodNanoseconds: Int64
    private let log: AccessLog
    private let now: @Sendable () -> Timestamp
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<SystemThread?>(nil)

    package init(
        store: any TransactionalEventStore, signer: NoteSigner, witnesses: [WitnessEndpoint], periodSeconds: Int64,
        log: AccessLog, now: @escaping @Sendable () -> Timestamp
    ) {
        self.store = store
        self.signer = signer
        self.cosigner = witnesses.isEmpty ? nil : Cosigner(witnesses: witnesses)
        self.periodNanoseconds = periodSeconds * 1_000_000_000
        self.log = log
        self.now = now
    }

    /// Starts the thread (after the server's signal mask is in place).
    package func start() {
        let started = SystemThread { [self] in loop() }
        thread.withLock { $0 = started }
    }

    /// Ends the thread after the round in progress.
    package func stop() {
        stopping.store(true, ordering: .relaxed)
        let running = thread.withLock { running -> SystemThread? in
            defer { running = nil }
            return running
        }
        running?.join()
    }

    private func loop() {
        var signedSize = (try? store.latestCheckpoint()?.size) ?? 0
        var lastRound: Int64?
        while !stopping.load(ordering: .relaxed) {
            guard let head = try? store.treeSize() else {
                SystemClock.sleep(nanoseconds: 500_000_000)
                continue
            }
            guard head > signedSize else {
                store.waitForCommit(after: head, timeout: .milliseconds(500))
                continue
            }
            let clock = SystemClock.monotonicNanoseconds()
            if let lastRound, clock - lastRound < periodNanoseconds {
                SystemClock.sleep(nanoseconds: min(periodNanoseconds - (clock - lastRound), 500_000_000))
                continue
            }
            lastRound = clock
            signedSize = round() ?? signedSize
        }
    }

    /// Signs the head and collects cosignatures; the size signed, nil when signing failed.
    private func round() -> Int64? {
        var line = JSONObject()
        line["time"] = .string(now().description)
        line["event"] = .string("checkpoint")
        defer { log.write(line) }
        let kept: StoredCheckpoint
        let signed: SignedCheckpoint
        do {
            kept = try JournalEvidence.sign(store, with: signer)
            signed = try SignedCheckpoint(parsing: kept.note)
        } catch {
            line["error"] = .string("cannot sign a checkpoint: \(error)")
            return nil
        }
        line["size"] = .number(JSONNumber(kept.size))
        guard let cosigner else { return kept.size }
        do {
            let outcome = try cosigner.collect(signed, store: store, now: now)
            line["cosignedBy"] = .array(outcome.cosigned.map { .string($0.key.name) })
            line["failed"] = .array(
                outcome.failures.map { failure in
                    var entry = JSONObject()
                    entry["witness"] = .string(failure.witness.key.name)
                    entry["reason"] = .string(failure.reason)
                    return .object(entry)
                })
        } catch {
            line["error"] = .string("cannot keep the cosignatures: \(error)")
        }
        return kept.size
    }
}
