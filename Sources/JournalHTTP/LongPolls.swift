import EventStore
import JournalApp
import JournalCore

/// The long-polls of `GET /v1/events?wait=S` that found nothing: one thread waits for the
/// store's next commit on behalf of all of them and answers each when events from its position
/// exist, when its wait ends, or at once when the server stops. The connections wait suspended,
/// holding no thread.
package final class LongPolls: Sendable {
    /// How often, at most, the head is read again without a wake-up: it bounds how late another
    /// process's commit (which does not wake this one) or a new, shorter wait is noticed.
    static let sliceNanoseconds: Int64 = 100_000_000

    private struct Waiter: Sendable {
        var from: Int64
        var limit: Int
        var deadline: Int64
        var reply: HTTPReply
    }

    private let store: any TransactionalEventStore
    private let answer: @Sendable ([RecordedEvent]) -> HTTPResponse
    private let failure: @Sendable (any Error) -> HTTPResponse
    private let workers = ServeWorkers<[Waiter]>([])

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
        workers.accept { $0.append(Waiter(from: from, limit: limit, deadline: deadline, reply: reply)) }
    }

    /// Answers every waiting long-poll now (with what there is) and ends the thread.
    func stop() { workers.stop() }

    private func loop() {
        var head = (try? store.headPosition()) ?? 0
        while true {
            let (now, nearest, done) = workers.wait { waiters, stopping -> (Int64, Int64, Bool)? in
                if waiters.isEmpty && !stopping { return nil }
                let now = SystemClock.monotonicNanoseconds()
                return (now, waiters.map(\.deadline).min() ?? now, stopping)
            }
            if !done {
                // Woken at once by this server's commits (after `head`): any commit may answer
                // someone, so the thread looks at every one.
                let slice = max(0, min(nearest - now, Self.sliceNanoseconds))
                store.waitForCommit(after: head, timeout: .nanoseconds(slice))
                head = (try? store.headPosition()) ?? head
            }
            let (due, finished) = workers.wait { [head] waiters, stopping -> ([Waiter], Bool)? in
                let now = SystemClock.monotonicNanoseconds()
                var due: [Waiter] = []
                waiters.removeAll { waiter in
                    guard stopping || waiter.from <= head || waiter.deadline <= now else { return false }
                    due.append(waiter)
                    return true
                }
                return (due, stopping)
            }
            for waiter in due {
                do {
                    waiter.reply.send(answer(try store.readAll(from: waiter.from, limit: waiter.limit)))
                } catch {
                    waiter.reply.send(failure(error))
                }
            }
            if finished { return }
        }
    }
}
