/// State that threads share, guarded by a `ConditionLock`: what `Synchronization.Mutex` is, with
/// a condition to wait on until the state is as a thread needs it (a queue has work, a server
/// stops).
///
/// The state is only reached inside the closures below, with the lock held; a wait releases the
/// lock and each closure call is a fresh access, so no access spans a wait.
package final class Guarded<State> {
    private let lock = ConditionLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the lock held.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// Calls `ready` with the lock held until it returns a value, waiting for a `broadcast()`
    /// between calls; returns that value.
    package func wait<R>(until ready: (inout State) throws -> R?) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let value = try ready(&state) { return value }
            lock.wait()
        }
    }

    /// Calls `ready` with the lock held and, unless it returns true, waits once for a
    /// `broadcast()` or until `seconds` pass (a poll's tick: the caller looks again either way).
    package func waitOnce(seconds: Double, unless ready: (inout State) throws -> Bool) rethrows {
        lock.lock()
        defer { lock.unlock() }
        if try !ready(&state) { lock.wait(seconds: seconds) }
    }

    /// Wakes every thread waiting in `wait(until:)` (call with or without the lock held).
    package func broadcast() { lock.broadcast() }
}

// Unchecked Sendable: `state` is reached only with `lock` held, and only `Sendable` state is shared.
extension Guarded: @unchecked Sendable where State: Sendable {}
