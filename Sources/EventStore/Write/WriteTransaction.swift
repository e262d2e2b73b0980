/// The `EventStoreTransaction` of a store's `write { }` (SQLite and PostgreSQL): a view of the
/// writer that is valid only inside the closure.
final class WriteTransaction<Writer: JournalWriter>: EventStoreTransaction {
    private var writer: Writer?

    init(writer: Writer) { self.writer = writer }

    func end() { writer = nil }

    private func open() throws(EventStoreError) -> Writer {
        guard let writer else {
            throw EventStoreError(
                code: .invalidInput, message: "the write transaction was used after its closure returned")
        }
        guard writer.isWriting else {
            throw EventStoreError(code: .io, message: "the write transaction was aborted by an earlier error")
        }
        return writer
    }

    @discardableResult
    func append(_ events: [ProposedEvent], to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> AppendResult
    {
        try open().appendInTransaction(StreamAppend(stream: stream, expectedVersion: expectedVersion, events: events))
    }

    func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64? {
        try open().lastVersion(of: stream)
    }

    func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent]
    {
        try open().read(stream: stream, from: version, direction: direction, limit: limit)
    }

    func event(withID id: String) throws(EventStoreError) -> RecordedEvent? {
        try open().storedEvent(id: id)
    }
}
