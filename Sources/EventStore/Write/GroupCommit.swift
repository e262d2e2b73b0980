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
/// `@unchecked Sendable`: `queue`, `writerBusy`, `owner`, `commitCount` and each request's
/// `result` are guarded by `condition`; `writer` is used only by the thread that set `writerBusy`.
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
            let head = run(group)
            condition.lock()
            if head != nil { commitCount += 1 }
            for member in group where member !== request { condition.signal(member.slot) }
            releaseWriter()
            if let head {
                condition.unlock()
                didCommit(head)
                condition.lock()
            }
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

    /// The leader's work: one transaction for the whole group. Returns the new head when a commit
    /// happened.
    private func run(_ group: [Request]) -> Int64? {
        do {
            try writer.beginGroup(group.map(\.batch))
        } catch {
            for request in group { request.result = .failure(error) }
            return nil
        }
        var succeeded: [(Request, [AppendResult])] = []
        for (index, request) in group.enumerated() {
            let alone = group.count == 1 && request.batch.count == 1
            do {
                let results = try writer.appendGroupRequest(request.batch, alone: alone)
                succeeded.append((request, results))
            } catch {
                request.result = .failure(error)
                if !writer.isWriting {
                    // The backend aborted the whole transaction (disk full, I/O error, server
                    // abort): everything in this group fails with the same cause; nothing of it
                    // was committed.
                    for (other, _) in succeeded { other.result = .failure(error) }
                    for other in group[(index + 1)...] { other.result = .failure(error) }
                    return nil
                }
            }
        }
        if writer.writeProgress?.written == 0 {
            writer.rollbackWrite()
            for (request, results) in succeeded { request.result = .success(results) }
            return nil
        }
        do {
            let head = writer.writeProgress?.headPosition ?? 0
            try writer.commitWrite()
            for (request, results) in succeeded { request.result = .success(results) }
            return head
        } catch {
            for (request, _) in succeeded { request.result = .failure(error) }
            return nil
        }
    }
}

extension GroupCommit where Writer == SQLiteJournal {
    /// Closes the writer connection (when the store goes away; no append can be running then).
    func closeWriter() { writer.close() }
}
