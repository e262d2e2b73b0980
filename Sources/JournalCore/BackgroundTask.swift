/// One computation running on another thread, whose result the caller collects later: the
/// simple way to use the second core for "prepare the next batch while this one is written".
///
/// The body runs once, on a thread of its own (`SystemThread`; on the caller's thread if the
/// system refuses one). Not on a dispatch queue: a task that waits for another task (a read
/// prefetched on one thread whose chain check runs on another) must not wait for a queue's
/// thread pool to notice that its workers are blocked. It is `sending`: the compiler checks that the
/// caller keeps no reference to what the body captures, and `wait()` hands the result back the
/// same way, so non-`Sendable` values (a model's pending rows, a batch) cross without a wrapper.
///
/// ```swift
/// let next = BackgroundTask { prepare(batch) }   // `batch` is not used here any more
/// write(current)
/// let prepared = next.wait()
/// ```
package final class BackgroundTask<Value>: Sendable {
    /// The body's thread, joined by the first `finish()`: the join orders the body's write of
    /// its value before the caller's read, which the compiler cannot see.
    nonisolated(unsafe) private var thread: SystemThread?
    nonisolated(unsafe) private var collected = false
    /// Where the body leaves its value (the task itself is not captured by its thread): written
    /// by the body's thread, read after the join.
    private let slot = HandOver<Value?>(nil)

    package init(_ body: sending @escaping () -> Value) {
        // Threads take only `@Sendable` closures; the body is `sending`, so nobody else can
        // reach what it captures, and only one thread calls it.
        nonisolated(unsafe) let body = body
        let slot = self.slot
        thread = SystemThread { slot.value = body() }
        if thread == nil { slot.value = body() }
    }

    /// Blocks until the body has returned and hands over its value (once: a second call is a
    /// programming error; `finish()` waits without taking it).
    package func wait() -> sending Value {
        finish()
        guard let value = slot.value.take() else { preconditionFailure("BackgroundTask's value was already taken") }
        return value
    }

    /// Blocks until the body has returned (as often as asked, before or after `wait()`); a result
    /// not taken is released with the task.
    package func finish() {
        guard !collected else { return }
        thread?.join()
        thread = nil
        collected = true
    }
}
