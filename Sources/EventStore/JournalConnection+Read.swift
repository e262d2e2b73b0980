import JournalCore

extension JournalConnection {
    static let columns = """
        position, stream_id, version, event_id, type_id, occurred_at, recorded_at, codec, data_len, meta_len, \
        payload, hash
        """

    /// Decodes the current row of a statement selecting `columns`. `stream` skips the name lookup
    /// when the caller knows it.
    func decodeRow(_ statement: SQLiteStatement, stream known: StreamName?) throws(EventStoreError) -> RecordedEvent {
        let position = statement.int64(at: 0)
        let stream: StreamName
        if let known { stream = known } else { stream = try streamName(of: statement.int64(at: 1)) }
        let id: String
        if statement.isBlob(at: 3) {
            id = statement.withBlob(at: 3) { bytes in
                bytes.count == 16 ? EventIDCoding.text(packed: bytes) : ""
            }
            guard !id.isEmpty else { throw .integrity(at: position, "the stored event id is damaged") }
        } else {
            id = statement.text(at: 3)
        }
        let type = try typeName(of: statement.int64(at: 4))
        let (data, meta) = try decodePayload(statement, position: position)
        return RecordedEvent(position: position, stream: stream, version: statement.int64(at: 2), id: id, type: type,
                             occurredAt: Timestamp(millisecondsSinceEpoch: statement.int64(at: 5)),
                             recordedAt: Timestamp(millisecondsSinceEpoch: statement.int64(at: 6)),
                             data: data, meta: meta, hash: statement.blob(at: 11))
    }

    /// Data and meta from columns 7…10 (codec, data_len, meta_len, payload).
    func decodePayload(_ statement: SQLiteStatement, position: Int64) throws(EventStoreError) -> ([UInt8], [UInt8]?) {
        let codec = statement.int64(at: 7)
        let dataLength = statement.int(at: 8)
        let metaLength: Int? = statement.isNull(at: 9) ? nil : statement.int(at: 9)
        return try StoredPayload.decode(codec: codec, dataLength: dataLength, metaLength: metaLength, position: position,
                                        scratch: &payloadScratch,
                                        dictionary: { id throws(EventStoreError) in try self.dictionary(id) },
                                        bytes: { body in statement.withBlob(at: 10, body) })
    }

    // MARK: - Reads

    func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent] {
        guard limit > 0, let id = try streamID(of: stream) else { return [] }
        return try collect("reading stream \(stream)", direction == .forward ? .readForward : .readBackward,
                           stream: stream) { statement in
            statement.bind(id, at: 1)
            statement.bind(version, at: 2)
            statement.bind(Int64(clamping: limit), at: 3)
        }
    }

    func readAll(from position: Int64, limit: Int) throws(EventStoreError) -> [RecordedEvent] {
        guard limit > 0 else { return [] }
        return try collect("reading the log", .readAll, stream: nil) { statement in
            statement.bind(position, at: 1)
            statement.bind(Int64(clamping: limit), at: 2)
        }
    }

    func streams(category: String?) throws(EventStoreError) -> [StreamName] {
        var names: [StreamName] = []
        try run("listing streams") { () throws(SQLiteError) in
            let statement: SQLiteStatement
            if let category {
                // Names sort by bytes, so `category-` … `category.` is exactly the category's range.
                statement = try sql.cached("SELECT name FROM journal_streams WHERE name > ? AND name < ? ORDER BY name")
                statement.bind(category + "-", at: 1)
                statement.bind(category + ".", at: 2)
            } else {
                statement = try sql.cached("SELECT name FROM journal_streams ORDER BY name")
            }
            defer { statement.reset() }
            while try statement.step() {
                if let name = try? StreamName(statement.text(at: 0)) { names.append(name) }
            }
        }
        return names
    }

    func streamCount() throws(EventStoreError) -> Int64 {
        try run("counting streams") { () throws(SQLiteError) in try sql.scalarInt("SELECT count(*) FROM journal_streams") ?? 0 }
    }

    func collect(_ what: @autoclosure () -> String, _ hot: Hot, stream: StreamName?,
                         bind: (SQLiteStatement) -> Void) throws(EventStoreError) -> [RecordedEvent] {
        let statement = try run(what()) { () throws(SQLiteError) in try self.statement(hot) }
        bind(statement)
        defer { statement.reset() }
        var events: [RecordedEvent] = []
        while try run(what(), { () throws(SQLiteError) in try statement.step() }) {
            events.append(try decodeRow(statement, stream: stream))
        }
        return events
    }
}
