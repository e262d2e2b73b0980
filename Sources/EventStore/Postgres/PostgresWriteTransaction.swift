/// The `EventStoreTransaction` of `PostgresEventStore.write { }`: a view of the writer session
/// that is valid only inside the closure.
final class PostgresWriteTransaction: EventStoreTransaction {
    private var journal: PostgresJournal?

    init(journal: PostgresJournal) { self.journal = journal }

    func end() { journal = nil }

    private func open() throws(EventStoreError) -> PostgresJournal {
        guard let journal else {
            throw EventStoreError(code: .invalidInput, message: "the write transaction was used after its closure returned")
        }
        guard journal.write != nil else {
            throw EventStoreError(code: .io, message: "the write transaction was aborted by an earlier error")
        }
        return journal
    }

    @discardableResult
    func append(_ events: [ProposedEvent], to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> AppendResult {
        // A failed append leaves the transaction as it was: `PostgresJournal.append` publishes
        // its changes only when it succeeds.
        let journal = try open()
        try journal.trainDictionaryIfDue()
        return try journal.append(StreamAppend(stream: stream, expectedVersion: expectedVersion, events: events))
    }

    func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64? {
        try open().lastVersion(of: stream)
    }

    func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent] {
        try open().read(stream: stream, from: version, direction: direction, limit: limit)
    }

    func event(withID id: String) throws(EventStoreError) -> RecordedEvent? {
        try open().storedEvent(id: id)
    }
}
