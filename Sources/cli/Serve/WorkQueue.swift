import JournalCore

/// A few threads taking work in arrival order: the reads of `journal serve` (a stream, a page of
/// the log, a query, the dashboard) run here, off the event loop, which must never wait.
final class WorkQueue: @unchecked Sendable {
    private let lock = ConditionLock()
    /// Guarded by `lock`.
    private var queue: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false
    private var threads: [SystemThread] = []

    init(threads count: Int) {
        for _ in 0..<max(1, count) {
            if let thread = SystemThread({ self.loop() }) { threads.append(thread) }
        }
    }

    /// Queues `work`; false once `stop` was called (or no thread could be started).
    func run(_ work: @escaping @Sendable () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopping, !threads.isEmpty else { return false }
        queue.append(work)
        lock.broadcast()
        return true
    }

    /// Lets the threads finish what is queued, then joins them.
    func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
        for thread in threads { thread.join() }
    }

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
            } else if stopping {
                break
            } else {
                lock.wait()
            }
        }
        lock.unlock()
    }
}
