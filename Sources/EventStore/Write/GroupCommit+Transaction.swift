extension GroupCommit {
    /// A store's `write { }`: `body` in one transaction on the writer, held exclusively. Commits
    /// when `body` returns (and reports the new head to `didCommit`); when `body` throws,
    /// everything rolls back and the error is rethrown. A nested call on the same thread throws
    /// `.invalidInput` rather than deadlocking.
    func transaction<R>(_ body: (any EventStoreTransaction) throws -> R) throws -> R {
        if isHeldByCurrentThread {
            throw EventStoreError(
                code: .invalidInput, message: "write called inside a write transaction of the same store")
        }
        let (result, head): (R, Int64?) = try exclusive { writer in
            try writer.beginTransaction()
            let transaction = WriteTransaction(writer: writer)
            defer { transaction.end() }
            let result: R
            do {
                result = try body(transaction)
            } catch {
                writer.rollbackWrite()
                throw error
            }
            guard let state = writer.writeProgress else {
                throw EventStoreError(code: .io, message: "the write transaction was aborted by an earlier error")
            }
            if state.written == 0 {
                writer.rollbackWrite()
                return (result, nil)
            }
            try writer.commitWrite()
            return (result, state.headPosition)
        }
        if let head { didCommit(head) }
        return result
    }
}
