import JournalApp
import JournalCore

/// The threads of a serve worker (`AppendBatcher`, `LongPolls`, `WorkQueue`) and the stop rule
/// they share: the owner's queue is guarded by ``lock``; work is accepted until ``stop()``,
/// which sets ``stopping``, wakes every thread and joins them. Each thread's loop ends once it
/// sees `stopping` with nothing left to do, so what was accepted is still done.
package final class ServeWorkers {
    /// Guards ``stopping``, ``threads`` and the owner's queue.
    let lock = ConditionLock()
    /// Guarded by `lock`.
    private(set) var stopping = false
    private var threads: [SystemThread] = []

    /// Starts `count` threads (at least one) running `loop`; once, at the end of the owner's
    /// `init`.
    func start(_ count: Int = 1, _ loop: @escaping @Sendable () -> Void) {
        lock.withLock {
            for _ in 0..<max(1, count) {
                if let thread = SystemThread(loop) { threads.append(thread) }
            }
        }
    }

    /// Runs `enqueue` with the lock held and returns true; false, without running it, once
    /// stopping or when no thread could be started.
    func accept(_ enqueue: () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopping, !threads.isEmpty else { return false }
        enqueue()
        return true
    }

    /// Lets the threads finish what was accepted, then joins them.
    func stop() {
        let threads = lock.withLock {
            stopping = true
            lock.broadcast()
            return self.threads
        }
        for thread in threads { thread.join() }
    }
}
