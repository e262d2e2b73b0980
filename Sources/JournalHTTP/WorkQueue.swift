import JournalApp
import JournalCore

/// A few threads taking work in arrival order: the reads of `journal serve` (a stream, a page of
/// the log, a query, the dashboard) run here, off the event loop, which must never wait.
package final class WorkQueue: @unchecked Sendable {
    private let workers = ServeWorkers()
    private var lock: ConditionLock { workers.lock }
    /// Guarded by `lock`.
    private var queue: [@Sendable () -> Void] = []
    private var head = 0

    init(threads count: Int) {
        workers.start(count) { self.loop() }
    }

    /// Queues `work`; false once `stop` was called (or no thread could be started).
    func run(_ work: @escaping @Sendable () -> Void) -> Bool {
        workers.accept {
            queue.append(work)
            lock.broadcast()
        }
    }

    /// Lets the threads finish what is queued, then joins them.
    func stop() { workers.stop() }

    private func loop() {
        lock.lock()
        while true {
            if head < queue.count {
                let work = queue[head]
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
                lock.unlock()
                work()
                lock.lock()
            } else if workers.stopping {
                break
            } else {
                lock.wait()
            }
        }
        lock.unlock()
    }
}
