#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex with one condition variable: the package's one blocking primitive (group
/// commit, `EventFollower`, the projections' prefetch, the server's append batcher).
/// `Synchronization.Mutex` guards plain state everywhere else; it has no condition variable.
///
/// The mutex and condition live in memory allocated here, never in a stored property: pthread
/// objects must not move, and Swift does not promise a stable address for a property.
// Unchecked Sendable: a pthread mutex and condition are made to be shared between threads.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a broadcast (the lock must be held; it is held again on return).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a broadcast or until `seconds` pass; false on timeout.
    @discardableResult
    package func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = Int(seconds)
        var deadline = timespec(
            tv_sec: now.tv_sec + whole,
            tv_nsec: now.tv_nsec + Int((seconds - Double(whole)) * 1_000_000_000))
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    package func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits on one waiter's own condition variable (the lock must be held), so that whoever
    /// wakes it wakes no one else.
    package func wait(_ slot: WaitSlot) { pthread_cond_wait(slot.condition, mutex) }

    /// Wakes the thread waiting on `slot` (call with the lock held).
    package func signal(_ slot: WaitSlot) { pthread_cond_signal(slot.condition) }

    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
