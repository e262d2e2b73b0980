import JournalApp
import JournalCore

/// A few threads taking work in arrival order: the reads of `journal serve` (a stream, a page of
/// the log, a query, the dashboard) run here, off the event loop, which must never wait.
package final class WorkQueue: Sendable {
    private struct Pending: Sendable {
        var work: [@Sendable () -> Void] = []
        var head = 0
    }

    private let workers = ServeWorkers(Pending())

    init(threads count: Int) {
        workers.start(count) { self.loop() }
    }

    /// Queues `work`; false once `stop` was called (or no thread could be started).
    func run(_ work: @escaping @Sendable () -> Void) -> Bool {
        workers.accept { $0.work.append(work) }
    }

    /// Lets the threads finish what is queued, then joins them.
    func stop() { workers.stop() }

    private func loop() {
        while let work = workers.next({ Self.take(from: &$0) }) {
            work()
        }
    }

    private static func take(from pending: inout Pending) -> (@Sendable () -> Void)? {
        guard pending.head < pending.work.count else { return nil }
        let work = pending.work[pending.head]
        pending.head += 1
        if pending.head == pending.work.count {
            pending.work.removeAll(keepingCapacity: true)
            pending.head = 0
        }
        return work
    }
}
