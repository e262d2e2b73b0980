/// A thread that stays, running the jobs it is given one at a time, in order: a loop that hands
/// it work page after page (a replay's fold lanes, its reading thread) starts it once instead of
/// a thread per page, and may give it the next page before the last one is done.
///
/// A `BackgroundTask` per page costs a thread's start and end each time, and on a busy machine a
/// new thread waits for the scheduler to place it; a waiting thread woken by its condition runs
/// where a core is free. The job is `sending`, as a `BackgroundTask`'s body: nobody else reaches
/// what it captures until ``wait()`` returns, which orders the job's writes before the caller's
/// reads (the lock's).
///
/// ```swift
/// let worker = WorkerThread()
/// worker.start { fold(page) }   // `page` is not used here until `wait()`
/// read(nextPage)
/// worker.wait()
/// ```
// Unchecked Sendable: the state is `Shared`'s, under its lock; `thread` is set in init, joined in deinit.
package final class WorkerThread: @unchecked Sendable {
    /// What the caller and the thread share, under `lock` (the thread holds this, not the
    /// worker, so that the worker's end stops the thread).
    // Unchecked Sendable: every stored property is read and written with `lock` held.
    private final class Shared: @unchecked Sendable {
        let lock = ConditionLock()
        var jobs: [() -> Void] = []
        var next = 0
        /// Jobs given, and jobs done (each job's ticket is the number given with it).
        var given = 0
        var done = 0
        var stopping = false
    }

    private let shared = Shared()
    private var thread: SystemThread?

    package init() {
        let shared = self.shared
        thread = SystemThread {
            shared.lock.lock()
            while true {
                while shared.next == shared.jobs.count, !shared.stopping { shared.lock.wait() }
                guard shared.next < shared.jobs.count else { break }
                let job = shared.jobs[shared.next]
                shared.next += 1
                if shared.next == shared.jobs.count {
                    shared.jobs.removeAll(keepingCapacity: true)
                    shared.next = 0
                }
                shared.lock.unlock()
                job()
                shared.lock.lock()
                shared.done += 1
                shared.lock.broadcast()
            }
            shared.lock.unlock()
        }
    }

    deinit {
        shared.lock.withLock {
            shared.stopping = true
            shared.lock.broadcast()
        }
        thread?.join()
    }

    /// Gives `job` to the thread, after the jobs given before it (runs it on the caller's
    /// thread, at once, when the system gave no thread); returns its ticket for ``wait(for:)``.
    @discardableResult
    package func start(_ job: sending @escaping () -> Void) -> Int {
        nonisolated(unsafe) let job = job
        guard thread != nil else {
            job()
            shared.given += 1
            shared.done += 1
            return shared.given
        }
        return shared.lock.withLock {
            shared.jobs.append(job)
            shared.given += 1
            shared.lock.broadcast()
            return shared.given
        }
    }

    /// Blocks until the job of `ticket` (and every job before it) has returned.
    package func wait(for ticket: Int) {
        shared.lock.withLock {
            while shared.done < ticket { shared.lock.wait() }
        }
    }

    /// Blocks until every job given has returned.
    package func wait() {
        shared.lock.withLock {
            while shared.done < shared.given { shared.lock.wait() }
        }
    }
}
