/// The `EventStoreTransaction` of `SQLiteEventStore.write { }`: a view of the writer connection
/// that is valid only inside the closure.
final class SQLiteWriteTransaction: EventStoreTransaction {
    private var connection: JournalConnection?

    init(connection: JournalConnection) { self.connection = connection }

    func end() { connection = nil }

    private func open() throws(EventStoreError) -> JournalConnection {
        guard let connection else {
            throw EventStoreError(code: .invalidInput, message: "the write transaction was used after its closure returned")
        }
        guard connection.write != nil else {
            throw EventStoreError(code: .io, message: "the write transaction was aborted by an earlier error")
        }
        return connection
    }

    @discardableResult
    func append(_ events: [ProposedEvent], to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> AppendResult {
        let connection = try open()
        return try connection.withSavepoint { () throws(EventStoreError) in
            try connection.append(StreamAppend(stream: stream, expectedVersion: expectedVersion, events: events))
        }
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
