import EventStore
import JournalApp
import JournalCore

/// The long-polls of `GET /v1/events?wait=S` that found nothing: one thread waits for the
/// store's next commit on behalf of all of them and answers each when events from its position
/// exist, when its wait ends, or at once when the server stops. The connections wait suspended,
/// holding no thread.
package final class LongPolls: @unchecked Sendable {
    /// How often, at most, the head is read again without a wake-up: it bounds how late another
    /// process's commit (which does not wake this one) or a new, shorter wait is noticed.
    static let sliceNanoseconds: Int64 = 100_000_000

    private struct Waiter {
        var from: Int64
        var limit: Int
        var deadline: Int64
        var reply: HTTPReply
    }

    private let store: any TransactionalEventStore
    private let answer: @Sendable ([RecordedEvent]) -> HTTPResponse
    private let failure: @Sendable (any Error) -> HTTPResponse
    private let workers = ServeWorkers()
    private var lock: ConditionLock { workers.lock }
    /// Guarded by `lock`.
    private var waiters: [Waiter] = []

    /// `answer` makes the response from the events found (none when the wait ended).
    init(
        store: any TransactionalEventStore, answer: @escaping @Sendable ([RecordedEvent]) -> HTTPResponse,
        failure: @escaping @Sendable (any Error) -> HTTPResponse
    ) {
        self.store = store
        self.answer = answer
        self.failure = failure
        workers.start { self.loop() }
    }

    /// Answers `reply` with the events from `from` once there are some, or with none at
    /// `deadline` (CLOCK_MONOTONIC nanoseconds). False once stopping: the caller answers.
    func add(from: Int64, limit: Int, deadline: Int64, reply: HTTPReply) -> Bool {
        workers.accept {
            waiters.append(Waiter(from: from, limit: limit, deadline: deadline, reply: reply))
            lock.broadcast()
        }
    }

    /// Answers every waiting long-poll now (with what there is) and ends the thread.
    func stop() { workers.stop() }

    private func loop() {
        var head = (try? store.headPosition()) ?? 0
        lock.lock()
        while true {
            if waiters.isEmpty && !workers.stopping {
                lock.wait()
                continue
            }
            let now = SystemClock.monotonicNanoseconds()
            let nearest = waiters.map(\.deadline).min() ?? now
            let done = workers.stopping
            lock.unlock()
            if !done {
                // Woken at once by this server's commits (after `head`): any commit may answer
                // someone, so the thread looks at every one.
                let slice = max(0, min(nearest - now, Self.sliceNanoseconds))
                store.waitForCommit(after: head, timeout: .nanoseconds(slice))
                head = (try? store.headPosition()) ?? head
            }
            lock.lock()
            let now2 = SystemClock.monotonicNanoseconds()
            var due: [Waiter] = []
            waiters.removeAll { waiter in
                guard workers.stopping || waiter.from <= head || waiter.deadline <= now2 else { return false }
                due.append(waiter)
                return true
            }
            let finished = workers.stopping
            lock.unlock()
            for waiter in due {
                do {
                    waiter.reply.send(answer(try store.readAll(from: waiter.from, limit: waiter.limit)))
                } catch {
                    waiter.reply.send(failure(error))
                }
            }
            if finished { return }
            lock.lock()
        }
    }
}
