import Dispatch

/// One computation running on another thread, whose result the caller collects later: the
/// simple way to use the second core for "prepare the next batch while this one is written".
///
/// The body runs once, on a global dispatch queue. It is `sending`: the compiler checks that the
/// caller keeps no reference to what the body captures, and `wait()` hands the result back the
/// same way, so non-`Sendable` values (a model's pending rows, a batch) cross without a wrapper.
///
/// ```swift
/// let next = BackgroundTask { prepare(batch) }   // `batch` is not used here any more
/// write(current)
/// let prepared = next.wait()
/// ```
package final class BackgroundTask<Value>: Sendable {
    /// Signalled when `result` is set, and again by every wait, so that a later wait returns at once.
    private let done = DispatchSemaphore(value: 0)
    /// Written by the body's thread before `done` is signalled, taken by `wait()` after it: the
    /// semaphore orders the two accesses, which the compiler cannot see.
    nonisolated(unsafe) private var result: Value?
    nonisolated(unsafe) private var collected = false

    package init(_ body: sending @escaping () -> Value) {
        // Dispatch takes only `@Sendable` closures; the body is `sending`, so nobody else can
        // reach what it captures, and only the queue's thread calls it.
        nonisolated(unsafe) let body = body
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = body()
            done.signal()
        }
    }

    /// Blocks until the body has returned and hands over its value (once: a second call is a
    /// programming error; `finish()` waits without taking it).
    package func wait() -> sending Value {
        finish()
        guard let value = result.take() else { preconditionFailure("BackgroundTask's value was already taken") }
        return value
    }

    /// Blocks until the body has returned (as often as asked, before or after `wait()`); a result
    /// not taken is released with the task.
    package func finish() {
        guard !collected else { return }
        done.wait()
        collected = true
    }
}
