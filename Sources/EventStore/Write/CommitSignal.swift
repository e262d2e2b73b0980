import JournalCore

/// Wakes followers when this process commits. Other processes' commits are seen by polling.
final class CommitSignal: Sendable {
    private struct State: Sendable {
        var head: Int64 = 0
        var nextToken: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<UInt64> = []
    }

    private let state = Guarded(State())

    func publish(_ position: Int64) {
        let woken = state.withLock { state in
            state.head = max(state.head, position)
            let woken = state.waiters
            state.waiters.removeAll()
            return woken
        }
        state.broadcast()
        for continuation in woken.values { continuation.resume() }
    }

    /// Blocks until a commit past `position` is published or `seconds` pass.
    func wait(after position: Int64, seconds: Double) {
        state.waitOnce(seconds: seconds) { $0.head > position }
    }

    /// Suspends until a commit past `position` is published, `timeout` passes, or the task is
    /// cancelled.
    func wait(after position: Int64, timeout: Duration) async {
        let token = state.withLock { state in
            state.nextToken += 1
            return state.nextToken
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        self.register(token, continuation, after: position)
                    }
                } onCancel: {
                    self.cancel(token)
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func register(_ token: UInt64, _ continuation: CheckedContinuation<Void, Never>, after position: Int64) {
        let now = state.withLock { state in
            if state.head > position || state.cancelled.remove(token) != nil { return true }
            state.waiters[token] = continuation
            return false
        }
        if now { continuation.resume() }
    }

    private func cancel(_ token: UInt64) {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let continuation = state.waiters.removeValue(forKey: token) { return continuation }
            state.cancelled.insert(token)
            return nil
        }
        waiting?.resume()
    }
}
