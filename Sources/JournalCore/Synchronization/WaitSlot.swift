#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A condition variable of its own for one waiter of a `ConditionLock` (used with that lock's
/// mutex): group commit wakes exactly the appenders whose results are ready, and the next leader,
/// instead of every waiting thread.
package final class WaitSlot {
    package let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }
}
