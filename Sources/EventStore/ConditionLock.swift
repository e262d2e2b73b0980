#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with one condition variable: the blocking primitive behind group commit and
/// `EventFollower`. (`Synchronization.Mutex` has no condition variable.)
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
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

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a broadcast (the lock must be held; it is held again on return).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a broadcast or until `seconds` pass; false on timeout.
    @discardableResult
    func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = Int(seconds)
        var deadline = timespec(tv_sec: now.tv_sec + whole,
                                tv_nsec: now.tv_nsec + Int((seconds - Double(whole)) * 1_000_000_000))
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits on one waiter's own condition variable (the lock must be held), so that whoever
    /// wakes it wakes no one else.
    func wait(_ slot: WaitSlot) { pthread_cond_wait(slot.condition, mutex) }

    /// Wakes the thread waiting on `slot` (call with the lock held).
    func signal(_ slot: WaitSlot) { pthread_cond_signal(slot.condition) }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable of its own for one waiter of a `ConditionLock` (used with that lock's
/// mutex): group commit wakes exactly the appenders whose results are ready, and the next leader,
/// instead of every waiting thread.
final class WaitSlot {
    fileprivate let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }
}
