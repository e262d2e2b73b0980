import Dispatch

/// One computation running on another thread, whose result the caller collects later: the
/// simple way to use the second core for "prepare the next batch while this one is written".
///
/// The body runs once, on a global dispatch queue; `wait()` blocks until it has finished and
/// returns its result (as often as asked). Whatever the body touches must not be used by anyone
/// else until `wait()` returned: the callers hand over a value they do not use meanwhile.
package final class BackgroundTask<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written by the running body before `done` is signalled; read only after a wait.
    private var result: Value?
    private var collected = false

    package init(_ body: @escaping @Sendable () -> Value) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = body()
            done.signal()
        }
    }

    /// Blocks until the body has returned; its value.
    package func wait() -> Value {
        if !collected {
            done.wait()
            collected = true
        }
        guard let result else { preconditionFailure("BackgroundTask finished without a result") }
        return result
    }
}
