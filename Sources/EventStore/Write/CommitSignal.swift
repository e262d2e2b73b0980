import JournalCore

/// Wakes followers when this process commits. Other processes' commits are seen by polling.
///
/// Unchecked `Sendable`: every property is guarded by `condition`.
final class CommitSignal: @unchecked Sendable {
    private let condition = ConditionLock()
    private var head: Int64 = 0
    private var nextToken: UInt64 = 0
    private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var cancelled: Set<UInt64> = []

    func publish(_ position: Int64) {
        condition.lock()
        head = max(head, position)
        let woken = waiters
        waiters.removeAll()
        condition.broadcast()
        condition.unlock()
        for continuation in woken.values { continuation.resume() }
    }

    /// Blocks until a commit past `position` is published or `seconds` pass.
    func wait(after position: Int64, seconds: Double) {
        condition.lock()
        if head <= position { condition.wait(seconds: seconds) }
        condition.unlock()
    }

    /// Suspends until a commit past `position` is published, `timeout` passes, or the task is
    /// cancelled.
    func wait(after position: Int64, timeout: Duration) async {
        let token = condition.withLock { () -> UInt64 in
            nextToken += 1
            return nextToken
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
        condition.lock()
        if head > position || cancelled.remove(token) != nil {
            condition.unlock()
            continuation.resume()
            return
        }
        waiters[token] = continuation
        condition.unlock()
    }

    private func cancel(_ token: UInt64) {
        condition.lock()
        if let continuation = waiters.removeValue(forKey: token) {
            condition.unlock()
            continuation.resume()
            return
        }
        cancelled.insert(token)
        condition.unlock()
    }
}
