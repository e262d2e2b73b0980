#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Group commit for the PostgreSQL writer session: concurrent appenders in one process share one
/// transaction, one lock acquisition and one WAL flush. The same hand-over as `GroupCommit` (the
/// SQLite store's): whoever finds the writer idle leads, takes the queue and runs it; a failed
/// request is undone on the client (its `WriteState` copy restored) without failing the others.
final class PostgresGroupCommit: @unchecked Sendable {
    final class Request {
        let batch: [StreamAppend]
        var result: Result<[AppendResult], EventStoreError>?
        init(batch: [StreamAppend]) { self.batch = batch }
    }

    private let condition = ConditionLock()
    private var queue: [Request] = []
    private var writerBusy = false
    /// The thread that holds the writer (set with `writerBusy`).
    private var owner: pthread_t?
    /// Only used by the thread that set `writerBusy`.
    private let writer: PostgresJournal
    private let didCommit: (Int64) -> Void
    private(set) var commitCount = 0

    init(writer: PostgresJournal, didCommit: @escaping (Int64) -> Void) {
        self.writer = writer
        self.didCommit = didCommit
    }

    /// True when the calling thread holds the writer (it is inside `write { }`).
    private var heldByCurrentThread: Bool {
        guard writerBusy, let owner else { return false }
        return pthread_equal(owner, pthread_self()) != 0
    }

    /// True when the calling thread is inside `write { }` on this store.
    var isHeldByCurrentThread: Bool { condition.withLock { heldByCurrentThread } }

    func append(_ batch: [StreamAppend]) throws(EventStoreError) -> [AppendResult] {
        let request = Request(batch: batch)
        condition.lock()
        if heldByCurrentThread {
            condition.unlock()
            throw EventStoreError(code: .invalidInput,
                                  message: "append called on the store inside its own write transaction: append through the transaction instead")
        }
        queue.append(request)
        while request.result == nil {
            if writerBusy {
                condition.wait()
                continue
            }
            writerBusy = true
            owner = pthread_self()
            let group = queue
            queue.removeAll(keepingCapacity: true)
            condition.unlock()
            let head = run(group)
            condition.lock()
            writerBusy = false
            owner = nil
            if head != nil { commitCount += 1 }
            condition.broadcast()
            if let head {
                condition.unlock()
                didCommit(head)
                condition.lock()
            }
        }
        condition.unlock()
        return try request.result!.get()
    }

    /// Runs `body` with the writer to itself (queued appends wait until it returns).
    func exclusive<R>(_ body: (PostgresJournal) throws -> R) rethrows -> R {
        condition.lock()
        while writerBusy { condition.wait() }
        writerBusy = true
        owner = pthread_self()
        condition.unlock()
        defer {
            condition.lock()
            writerBusy = false
            owner = nil
            condition.broadcast()
            condition.unlock()
        }
        return try body(writer)
    }

    /// One transaction for the whole group: `BEGIN`, the lock and every lookup in one round trip,
    /// the appends decided on the client, then the rows, the head, the notification and `COMMIT`
    /// in one pipeline. Returns the new head when a commit happened.
    private func run(_ group: [Request]) -> Int64? {
        var streams: [String] = []
        var ids: [String] = []
        for request in group {
            for part in request.batch {
                streams.append(part.stream.rawValue)
                for event in part.events { ids.append(event.id) }
            }
        }
        do {
            try writer.beginWrite(streams: streams, ids: ids)
            try writer.trainDictionaryIfDue()
        } catch {
            writer.rollbackWrite()
            for request in group { request.result = .failure(error) }
            return nil
        }
        var succeeded: [(Request, [AppendResult])] = []
        for (index, request) in group.enumerated() {
            // A single append is failure-atomic by itself. For several parts, nothing is sent to
            // the server until the commit (every lookup was done at `BEGIN`), so restoring this
            // copy undoes a request that failed halfway through its parts.
            let snapshot = request.batch.count > 1 ? writer.write : nil
            do {
                var results: [AppendResult] = []
                results.reserveCapacity(request.batch.count)
                for part in request.batch { results.append(try writer.append(part)) }
                succeeded.append((request, results))
            } catch {
                request.result = .failure(error)
                if writer.write == nil {
                    // The server aborted the transaction: nothing of this group was committed.
                    for (other, _) in succeeded { other.result = .failure(error) }
                    for other in group[(index + 1)...] { other.result = .failure(error) }
                    return nil
                }
                if let snapshot { writer.write = snapshot }
            }
        }
        if writer.write?.written == 0 {
            writer.rollbackWrite()
            for (request, results) in succeeded { request.result = .success(results) }
            return nil
        }
        do {
            let head = writer.write?.headPosition ?? 0
            try writer.commitWrite()
            for (request, results) in succeeded { request.result = .success(results) }
            return head
        } catch {
            for (request, _) in succeeded { request.result = .failure(error) }
            return nil
        }
    }
}
