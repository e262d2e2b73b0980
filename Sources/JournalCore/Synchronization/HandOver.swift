/// A value that threads take turns with, where what orders the turns is a wait the compiler
/// cannot see: a `BackgroundTask` waited for before the value is touched again, a pipeline that
/// fills one batch at a time, a lock taken around every use. The package's one unchecked
/// hand-over (in the manner of SwiftNIO's `UnsafeTransfer`): a type that crosses threads this
/// way stays non-`Sendable` itself, and only the spot that hands it over wraps it, next to the
/// wait that makes the hand-over safe.
///
/// ```swift
/// let batch = HandOver(filling)                  // `filling` is not touched until `finish()`
/// let task = BackgroundTask { lane.value.fold(batch.value) }
/// task.finish()
/// ```
///
/// The rule for every use: between the hand-over and the wait, exactly one thread touches
/// `value` (or several only read it), and nothing else reaches it.
// Unchecked Sendable: the one hand-over; the callers' waits order every access to `value` (above).
package final class HandOver<Value>: @unchecked Sendable {
    package var value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
