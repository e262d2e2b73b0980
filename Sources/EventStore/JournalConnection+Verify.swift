import JournalCore

extension JournalConnection {
    /// Walks the whole log in one read transaction (a consistent snapshot) and checks the rule
    /// written in `ChainHasher.swift`. Throws `.integrity` with the first bad position.
    func verify() throws(EventStoreError) -> VerifyReport {
        let inTransaction = write != nil
        if !inTransaction {
            try run("starting a read transaction") { () throws(SQLiteError) in try sql.begin(.deferred) }
        }
        defer { if !inTransaction { sql.rollback() } }

        let head = try self.head()
        var expectedPosition: Int64 = 1
        var previous = ChainHasher.zeroHash
        var versions: [Int64: Int64] = [:]
        let statement = try run("reading the log") { () throws(SQLiteError) in
            try sql.cached("SELECT \(Self.columns) FROM journal_events ORDER BY position")
        }
        defer { statement.reset() }
        while try run("reading the log", { () throws(SQLiteError) in try statement.step() }) {
            let position = statement.int64(at: 0)
            guard position == expectedPosition else {
                if position > expectedPosition {
                    throw .integrity(at: expectedPosition, "the event at position \(expectedPosition) is missing (the next stored position is \(position))")
                }
                throw .integrity(at: position, "position \(position) is out of order (expected \(expectedPosition))")
            }
            let streamID = statement.int64(at: 1)
            let version = statement.int64(at: 2)
            let expectedVersion = versions[streamID].map { $0 + 1 } ?? 0
            let event: RecordedEvent
            do {
                event = try decodeRow(statement, stream: nil)
            } catch where error.code == .integrity {
                throw .integrity(at: position, error.message)
            }
            guard version == expectedVersion else {
                throw .integrity(at: position, "stream \(event.stream) has version \(version) here, expected \(expectedVersion)")
            }
            let hash = event.data.withUnsafeBytes { data in
                Self.withOptionalBytes(event.meta) { meta in
                    hasher.hash(previous: previous, position: position, version: version, stream: event.stream.rawValue,
                                id: event.id, type: event.type, occurredAt: event.occurredAt,
                                recordedAt: event.recordedAt, data: data, meta: meta)
                }
            }
            guard hash == event.hash else {
                throw .integrity(at: position, "the stored hash does not match the event's content and the previous hash")
            }
            versions[streamID] = version
            previous = hash
            expectedPosition += 1
        }
        let last = expectedPosition - 1
        if head.position > last {
            throw .integrity(at: last + 1, "the journal head is at position \(head.position), but the log ends at \(last): events were removed")
        }
        if head.position < last {
            throw .integrity(at: head.position + 1, "the log goes on past the journal head (\(head.position)): events were added outside the store")
        }
        if head.hash != previous {
            throw .integrity(at: max(last, 1), "the journal head's hash does not match the last event")
        }
        return VerifyReport(events: last, streams: Int64(versions.count), headPosition: last,
                            headHash: last == 0 ? "" : previous.hexString)
    }
}
