import EventStore
import JournalApp
import JournalCore

/// Group commit for `POST /v1/events`: one writer thread takes every request that arrived while
/// it wrote the last transaction and writes them together in the next one (one transaction, one
/// fsync), each validated by its own `Importer` against the journal and the requests before it
/// in the group. Each request's completion runs after the commit returned (or once it was
/// refused), on a thread of its own (`completer`): answering and resuming a group's connections
/// overlaps the next group's transaction instead of delaying it.
///
/// Each request stays all or nothing: when one is refused (422, 409), the transaction rolls back,
/// that request gets its answer, and the group is written again without it. The requests before
/// it had passed against the same journal, so they pass again; the refused one was judged
/// against exactly the state it would have been appended to. A request with a line refused by
/// the checks made before the writer (`EventsAppend.prepare`: JSON, envelope, sensitive data)
/// cannot commit, so it never costs the others a rollback: it is judged after them, alone.
package final class AppendBatcher: Sendable {
    /// The most requests one transaction takes (a bound on the rework when one is refused).
    static let maxGroup = 64

    typealias Completion = @Sendable (Result<EventsAppend.Outcome, any Error>) -> Void

    private struct Job {
        let request: EventsAppend.Request
        let completion: Completion
    }

    private struct RollBack: Error {}

    private let store: any TransactionalEventStore
    private let workers = ServeWorkers<[Job]>([])
    private let completer = WorkQueue(threads: 1)

    init(store: any TransactionalEventStore) {
        self.store = store
        workers.start { self.loop() }
    }

    /// Queues `request`; `completion` gets its outcome once its group's commit returned (or it
    /// was refused). False when the batcher is stopping: `completion` is not called.
    func submit(_ request: EventsAppend.Request, then completion: @escaping Completion) -> Bool {
        workers.accept { $0.append(Job(request: request, completion: completion)) }
    }

    /// Writes what is queued, then ends the writer thread.
    func stop() {
        workers.stop()
        completer.stop()
    }

    private func loop() {
        while let group = workers.next({ Self.group(from: &$0) }) {
            let results = write(group)
            let completed = completer.run {
                for (job, result) in zip(group, results) { job.completion(result) }
            }
            if !completed {
                for (job, result) in zip(group, results) { job.completion(result) }
            }
        }
    }

    /// The next group: up to `maxGroup` requests in arrival order; nil when none is queued.
    private static func group(from queue: inout [Job]) -> [Job]? {
        guard !queue.isEmpty else { return nil }
        let group = Array(queue.prefix(maxGroup))
        queue.removeFirst(group.count)
        return group
    }

    /// Writes the group in one transaction, setting aside each refused request until the rest
    /// commits; then judges each request refused before it reached the journal
    /// (`refusedEarly`), in a transaction of its own that always rolls back, against the state
    /// it would have been appended to. One result per job, in order.
    private func write(_ group: [Job]) -> [Result<EventsAppend.Outcome, any Error>] {
        var results = [Result<EventsAppend.Outcome, any Error>?](repeating: nil, count: group.count)
        var pending = group.indices.filter { !group[$0].request.refusedEarly }
        while !pending.isEmpty {
            var outcomes: [EventsAppend.Outcome] = []
            var refused: (index: Int, outcome: EventsAppend.Outcome)?
            do {
                try store.write { transaction in
                    outcomes.removeAll()
                    var importer = Importer(transaction: transaction, cacheCapacity: 1024)
                    for index in pending {
                        let outcome = try EventsAppend.apply(group[index].request, with: &importer)
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
        for index in group.indices where group[index].request.refusedEarly {
            do {
                try store.write { transaction in
                    var importer = Importer(transaction: transaction)
                    results[index] = .success(try EventsAppend.apply(group[index].request, with: &importer))
                    throw RollBack()
                }
            } catch is RollBack {
            } catch {
                results[index] = .failure(error)
            }
        }
        return results.map { $0 ?? .failure(EventStoreError(code: .io, message: "the append was not attempted")) }
    }
}
