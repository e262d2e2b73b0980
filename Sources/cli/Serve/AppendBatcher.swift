import EventStore
import JournalCore

/// Group commit for `POST /v1/events`: requests that arrive while a transaction is being
/// written wait, then go together in the next one (one transaction, one fsync), each validated
/// by its own `Importer` against the journal and the requests before it in the group.
///
/// Each request stays all or nothing: when one is refused (422, 409), the transaction rolls back,
/// that request gets its answer, and the group is written again without it. The requests before
/// it had passed against the same journal, so they pass again; the refused one was judged
/// against exactly the state it would have been appended to. The store's `write` is exclusive,
/// so one group is written at a time; whoever finds no group being written leads the next one
/// (the pattern of the store's own `GroupCommit`).
final class AppendBatcher: @unchecked Sendable {
    /// The most requests one transaction takes (a bound on the rework when one is refused).
    static let maxGroup = 64

    private final class Job {
        let request: EventsAppend.Request
        var result: Result<EventsAppend.Outcome, any Error>?
        /// Where this request's thread sleeps (with the batcher's mutex): woken alone when its
        /// result is set or when it is to lead the next group, so a commit does not wake every
        /// waiting thread.
        let wake = WaitSlot()
        init(request: EventsAppend.Request) { self.request = request }
    }

    private struct RollBack: Error {}

    private let store: any TransactionalEventStore
    /// Guards `queue`, `leading` and every job's `result`.
    private let lock = ConditionLock()
    private var queue: [Job] = []
    private var leading = false

    init(store: any TransactionalEventStore) { self.store = store }

    /// Appends `request` with the others waiting; returns once its group's commit returned (or
    /// it was refused).
    func submit(_ request: EventsAppend.Request) throws -> EventsAppend.Outcome {
        let job = Job(request: request)
        lock.lock()
        queue.append(job)
        while job.result == nil {
            if leading {
                lock.wait(job.wake)
                continue
            }
            leading = true
            let group = Array(queue.prefix(Self.maxGroup))
            queue.removeFirst(group.count)
            lock.unlock()
            let results = write(group)
            lock.lock()
            for (member, result) in zip(group, results) { member.result = result }
            leading = false
            lock.unlock()
            // Signalled after unlocking, so a woken thread does not at once wait for the mutex.
            // A member that has not slept yet sees its result before it would; `group` keeps
            // every member (and its condition) alive meanwhile.
            for member in group where member !== job { lock.signal(member.wake) }
            lock.lock()
            // The oldest waiting request leads the next group, unless a new arrival already does.
            if !leading, let next = queue.first { lock.signal(next.wake) }
        }
        lock.unlock()
        return try job.result!.get()
    }

    /// Writes the group in one transaction, setting aside each refused request until the rest
    /// commits. One result per job, in order.
    private func write(_ group: [Job]) -> [Result<EventsAppend.Outcome, any Error>] {
        var results = [Result<EventsAppend.Outcome, any Error>?](repeating: nil, count: group.count)
        var pending = Array(group.indices)
        while !pending.isEmpty {
            var outcomes: [EventsAppend.Outcome] = []
            var refused: (index: Int, outcome: EventsAppend.Outcome)?
            do {
                try store.write { transaction in
                    outcomes.removeAll()
                    for index in pending {
                        let outcome = try EventsAppend.apply(group[index].request, in: transaction)
                        guard outcome.isCommitted else {
                            refused = (index, outcome)
                            throw RollBack()
                        }
                        outcomes.append(outcome)
                    }
                }
                for (index, outcome) in zip(pending, outcomes) { results[index] = .success(outcome) }
                pending.removeAll()
            } catch is RollBack {
                guard let refused else { break }
                results[refused.index] = .success(refused.outcome)
                pending.removeAll { $0 == refused.index }
            } catch {
                for index in pending { results[index] = .failure(error) }
                pending.removeAll()
            }
        }
        return results.map { $0 ?? .failure(EventStoreError(code: .io, message: "the append was not attempted")) }
    }
}
