import JournalCore

/// Group commit: concurrent appenders in one process share one transaction and one fsync (SQLite)
/// or one lock acquisition and WAL flush (PostgreSQL). Backend-neutral over `JournalWriter`.
///
/// Every append enqueues itself and waits. Whoever finds the writer idle becomes the *leader*: it
/// takes the whole queue, runs it in one transaction (each request all-or-nothing by itself, so
/// one request's conflict does not fail the others: a savepoint on SQLite, a restored client-side
/// copy on PostgreSQL), hands each waiter its result and wakes them. Appends arriving during that
/// commit form the next group. A scoped `write { }` takes the writer exclusively the same way.
/// Only the leader (or the `write` owner) touches the writer connection, which is what makes the
/// connection's single-thread rule hold.
///
/// Where that undo costs on every request (SQLite), a group first runs without it; only when
/// one of its requests fails is the transaction rolled back and the group run again with it
/// (and so are the next few groups). The outcome is the same either way: nothing of a run
/// that is rolled back was seen or committed.
///
/// Unchecked `Sendable`: `queue`, `writerBusy`, `owner`, `commitCount` and each request's
/// `result` are guarded by `condition` (the leader hands out results under it); `writer` and
/// `groupsWithUndo` are used only by the thread that set `writerBusy`.
// Unchecked Sendable: the queue under `condition`, the writer only in the hands of its leader (above).
final class GroupCommit<Writer: JournalWriter>: @unchecked Sendable {
    final class Request {
        let batch: [StreamAppend]
        var result: Result<[AppendResult], EventStoreError>?
        /// Where this appender sleeps: woken when its result is set, or to lead the next group.
        let slot = WaitSlot()
        init(batch: [StreamAppend]) { self.batch = batch }
    }

    private let condition = ConditionLock()
    private var queue: [Request] = []
    private var writerBusy = false
    /// A group's deferred sync is running: the next group appends meanwhile but commits after it,
    /// so that one sync at a time reaches the disk and groups keep their size.
    private var syncing = false
    /// The thread that holds the writer (set with `writerBusy`).
    private var owner: ThreadIdentity?
    /// The writer connection; only used by the thread that set `writerBusy`.
    private let writer: Writer
    /// Called after every successful commit, with the new head position (wakes followers).
    let didCommit: (Int64) -> Void
    /// Number of transactions committed (for tests of group commit).
    private(set) var commitCount = 0

    init(writer: Writer, didCommit: @escaping (Int64) -> Void) {
        self.writer = writer
        self.didCommit = didCommit
    }

    /// True when the calling thread holds the writer (it is inside `write { }`).
    private var heldByCurrentThread: Bool {
        guard writerBusy, let owner else { return false }
        return owner == .current
    }

    func append(_ batch: [StreamAppend]) throws(EventStoreError) -> [AppendResult] {
        let request = Request(batch: batch)
        condition.lock()
        if heldByCurrentThread {
            condition.unlock()
            throw EventStoreError(
                code: .invalidInput,
                message:
                    "append called on the store inside its own write transaction: append through the transaction "
                    + "instead"
            )
        }
        queue.append(request)
        while request.result == nil {
            if writerBusy {
                condition.wait(request.slot)
                continue
            }
            writerBusy = true
            owner = .current
            let group = queue
            queue.removeAll(keepingCapacity: true)
            condition.unlock()
            var (head, outcomes, sync) = run(group)
            writer.endGroup()
            condition.lock()
            if sync == nil {
                for (member, outcome) in zip(group, outcomes) { member.result = outcome }
            }
            if head != nil { commitCount += 1 }
            // The next group's leader first, so that its commit starts while this group's members
            // are being woken (or its commit is being synced); they are woken outside the lock,
            // which each of them takes on waking.
            releaseWriter()
            condition.unlock()
            if let sync {
                // The group's commit reaches the disk while the next group appends; its members
                // are answered only then. A failed sync fails them: their events may be there.
                do {
                    try sync.run()
                } catch {
                    head = nil
                    outcomes = outcomes.map { $0.flatMap { _ in .failure(error) } }
                }
                condition.lock()
                syncing = false
                condition.broadcast()
                for (member, outcome) in zip(group, outcomes) { member.result = outcome }
                condition.unlock()
            }
            for member in group where member !== request { condition.signal(member.slot) }
            if let head { didCommit(head) }
            condition.lock()
        }
        condition.unlock()
        return try request.result!.get()
    }

    /// Runs `body` with the writer to itself (queued appends wait until it returns). When the
    /// calling thread already holds the writer (a read inside `write { }`), `body` runs at once if
    /// `reentrant`, and otherwise gets `.invalidInput` instead of a deadlock.
    func exclusive<R, E: Error>(reentrant: Bool = false, _ body: (Writer) throws(E) -> R) throws(E) -> R {
        condition.lock()
        if heldByCurrentThread {
            condition.unlock()
            guard reentrant else {
                // Only the stores' `write` asks for a non-reentrant hold; nesting it is a
                // caller's mistake that must not deadlock.
                preconditionFailure("unreachable: nested write is rejected by the store")
            }
            return try body(writer)
        }
        while writerBusy { condition.wait() }
        writerBusy = true
        owner = .current
        condition.unlock()
        defer {
            condition.lock()
            releaseWriter()
            condition.unlock()
        }
        return try body(writer)
    }

    /// Frees the writer (the lock held) and wakes who may take it next: the first queued
    /// appender, which leads the next group, and the threads waiting in `exclusive`.
    private func releaseWriter() {
        writerBusy = false
        owner = nil
        if let next = queue.first { condition.signal(next.slot) }
        condition.broadcast()
    }

    /// True when the calling thread is inside `write { }` on this store.
    var isHeldByCurrentThread: Bool { condition.withLock { heldByCurrentThread } }

    /// The leader's work: one transaction for the whole group. Returns each request's outcome,
    /// in the group's order, and the new head when a commit happened. The results are handed to
    /// the requests by the caller, under the lock their owners read them with.
    private func run(_ group: [Request]) -> GroupOutcome {
        if group.count > 1 && writer.requestUndoCostsEveryRequest {
            if groupsWithUndo > 0 {
                groupsWithUndo -= 1
            } else if let done = run(group, undoingEachRequest: false) {
                return done
            } else {
                // Conflicts tend to come in runs (writers racing for the same streams): the next
                // groups are undone request by request at once instead of run twice.
                groupsWithUndo = Self.groupsWithUndoAfterAFailure
            }
        }
        // Never nil when each request is undone by itself.
        return run(group, undoingEachRequest: true)!
    }

    typealias GroupOutcome = (
        head: Int64?, outcomes: [Result<[AppendResult], EventStoreError>], sync: DeferredSync?
    )

    /// Groups still to run with a request's undo after a group without it had a failure.
    /// Only the leader uses it (the thread that set `writerBusy`).
    private var groupsWithUndo = 0
    static var groupsWithUndoAfterAFailure: Int { 16 }

    /// The group in one transaction. Undoing each request by itself (a lone request needs no
    /// undo: its failure rolls the transaction back), a failed request gets its error and the
    /// others go on. Without it, the first failure rolls the whole transaction back and the
    /// result is nil: nothing of the group happened, and the caller runs it again with undo.
    private func run(_ group: [Request], undoingEachRequest: Bool) -> GroupOutcome? {
        do {
            try writer.beginGroup(group.map(\.batch))
        } catch {
            return undoingEachRequest ? (nil, Array(repeating: .failure(error), count: group.count), nil) : nil
        }
        var outcomes: [Result<[AppendResult], EventStoreError>] = []
        outcomes.reserveCapacity(group.count)
        for request in group {
            do {
                outcomes.append(
                    .success(
                        try writer.appendGroupRequest(
                            request.batch, abortsOnFailure: !undoingEachRequest || group.count == 1)))
            } catch {
                guard undoingEachRequest else {
                    if writer.isWriting { writer.rollbackWrite() }
                    return nil
                }
                if !writer.isWriting {
                    // The backend aborted the whole transaction (disk full, I/O error, server
                    // abort): everything in this group fails with the same cause; nothing of it
                    // was committed.
                    return (nil, Array(repeating: .failure(error), count: group.count), nil)
                }
                outcomes.append(.failure(error))
            }
        }
        return commit(outcomes)
    }

    /// Commits the group's transaction (or rolls it back when it wrote nothing).
    private func commit(_ outcomes: [Result<[AppendResult], EventStoreError>]) -> GroupOutcome {
        if writer.writeProgress?.written == 0 {
            writer.rollbackWrite()
            return (nil, outcomes, nil)
        }
        do {
            let head = writer.writeProgress?.headPosition ?? 0
            condition.lock()
            while syncing { condition.wait() }
            condition.unlock()
            let sync = try writer.commitGroup()
            if sync != nil { condition.withLock { syncing = true } }
            return (head, outcomes, sync)
        } catch {
            // Nothing of the group was committed; requests that failed by themselves keep their
            // own error.
            return (nil, outcomes.map { $0.flatMap { _ in .failure(error) } }, nil)
        }
    }
}

extension GroupCommit where Writer == SQLiteJournal {
    /// Closes the writer connection (when the store goes away; no append can be running then).
    func closeWriter() { writer.close() }
}
