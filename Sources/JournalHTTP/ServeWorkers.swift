import JournalApp
import JournalCore

/// The threads of a serve worker (`AppendBatcher`, `LongPolls`, `WorkQueue`), the owner's queue
/// and the stop rule they share: work is accepted until ``stop()``, which wakes every thread
/// and joins them. Each thread's loop ends once it sees the stop with nothing left to do, so
/// what was accepted is still done.
package final class ServeWorkers<Queue> {
    fileprivate struct Shared {
        var queue: Queue
        var stopping = false
        var threads: [SystemThread] = []
    }

    private let shared: Guarded<Shared>

    init(_ queue: Queue) {
        shared = Guarded(Shared(queue: queue))
    }

    /// Starts `count` threads (at least one) running `loop`; once, at the end of the owner's
    /// `init`.
    func start(_ count: Int = 1, _ loop: @escaping @Sendable () -> Void) {
        shared.withLock { shared in
            for _ in 0..<max(1, count) {
                if let thread = SystemThread(loop) { shared.threads.append(thread) }
            }
        }
    }

    /// Runs `enqueue` with the lock held, wakes the threads and returns true; false, without
    /// running it, once stopping or when no thread could be started.
    func accept(_ enqueue: (inout Queue) -> Void) -> Bool {
        shared.withLock { shared in
            guard !shared.stopping, !shared.threads.isEmpty else { return false }
            enqueue(&shared.queue)
            self.shared.broadcast()
            return true
        }
    }

    /// Calls `ready` with the lock held (the queue, and whether `stop` was called) until it
    /// returns a value, waiting for new work or the stop between calls.
    func wait<R>(until ready: (inout Queue, _ stopping: Bool) -> R?) -> R {
        shared.wait { shared in ready(&shared.queue, shared.stopping) }
    }

    /// The next work `take` finds in the queue, waiting for some; nil once stopping with the
    /// queue drained.
    func next<Work>(_ take: (inout Queue) -> Work?) -> Work? {
        wait { queue, stopping -> Work?? in
            if let work = take(&queue) { return .some(work) }
            return stopping ? .some(nil) : nil
        }
    }

    /// Lets the threads finish what was accepted, then joins them.
    func stop() {
        let threads = shared.withLock { shared in
            shared.stopping = true
            self.shared.broadcast()
            return shared.threads
        }
        for thread in threads { thread.join() }
    }
}

extension ServeWorkers.Shared: Sendable where Queue: Sendable {}
extension ServeWorkers: Sendable where Queue: Sendable {}
