import JournalCore

extension SQLiteJournal {
    static let columns = """
        position, stream_id, version, event_id, type_id, occurred_at, recorded_at, codec, data_len, meta_len, \
        payload, hash
        """

    /// `columns`, then the stored hash of the event at the previous position (NULL at position 1),
    /// for `ChainLinkCheck`.
    static let checkedColumns =
        columns + """
            , (SELECT previous.hash FROM journal_events AS previous \
            WHERE previous.position = journal_events.position - 1)
            """

    /// Decodes the current row of a statement selecting `columns`. `stream` skips the name lookup
    /// when the caller knows it.
    func decodeRow(_ statement: SQLiteStatement, stream known: StreamName?) throws(EventStoreError) -> RecordedEvent {
        let position = statement.int64(at: 0)
        let stream: StreamName
        do {
            if let known { stream = known } else { stream = try streamName(of: statement.int64(at: 1)) }
            return try decodeRow(statement, position: position, stream: stream)
        } catch {
            throw error.located(at: position)
        }
    }

    private func decodeRow(_ statement: SQLiteStatement, position: Int64, stream: StreamName)
        throws(EventStoreError) -> RecordedEvent
    {
        let id = try storedID(statement, column: 3, position: position)
        let type = try typeName(of: statement.int64(at: 4))
        let (data, meta) = try decodePayload(statement, position: position)
        return RecordedEvent(
            position: position, stream: stream, version: statement.int64(at: 2), id: id, type: type,
            occurredAt: Timestamp(millisecondsSinceEpoch: statement.int64(at: 5)),
            recordedAt: Timestamp(millisecondsSinceEpoch: statement.int64(at: 6)),
            data: data, meta: meta, hash: statement.blob(at: 11))
    }

    /// The event id in `column`: 16 packed bytes (a lowercase UUID) or its text as written.
    func storedID(_ statement: SQLiteStatement, column: Int32, position: Int64) throws(EventStoreError) -> String {
        guard statement.isBlob(at: column) else { return statement.text(at: column) }
        let id = statement.withBlob(at: column) { bytes in bytes.count == 16 ? EventIDCoding.text(packed: bytes) : "" }
        guard !id.isEmpty else { throw .integrity(at: position, "the stored event id is damaged") }
        return id
    }

    /// Data and meta from columns 7…10 (codec, data_len, meta_len, payload).
    func decodePayload(_ statement: SQLiteStatement, position: Int64) throws(EventStoreError) -> ([UInt8], [UInt8]?) {
        let codec = statement.int64(at: 7)
        let dataLength = statement.int(at: 8)
        let metaLength: Int? = statement.isNull(at: 9) ? nil : statement.int(at: 9)
        return try StoredPayload.decode(
            codec: codec, dataLength: dataLength, metaLength: metaLength, position: position,
            scratch: &payloadScratch,
            dictionary: { id throws(EventStoreError) in try self.dictionary(id) },
            bytes: { body in statement.withBlob(at: 10, body) })
    }

    // MARK: - Reads

    func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent]
    {
        guard limit > 0, let id = try streamID(of: stream) else { return [] }
        // Read before the events: they are then at least as recent as the end (WAL snapshots
        // per statement), so a read that stops short of it has found events gone.
        let recorded = hasStreamEnds ? try recordedEnd(streamID: id, stream: stream) : nil
        var versions = StreamVersionCheck(stream: stream, from: version, direction: direction, recorded: recorded)
        let events = try collect(
            "reading stream \(stream)", direction == .forward ? .readForward : .readBackward,
            stream: stream, check: .previousColumn,
            each: { event throws(EventStoreError) in try versions.check(event) },
            bind: { statement in
                statement.bind(id, at: 1)
                statement.bind(version, at: 2)
                statement.bind(Int64(clamping: limit), at: 3)
            })
        try versions.finish(limit: limit)
        return events
    }

    /// The end the journal records for stream `id` (nil: none, for a stream without events).
    func recordedEnd(streamID id: Int64, stream: StreamName) throws(EventStoreError) -> StreamEnd? {
        try run("reading the last event of stream \(stream)") { () throws(SQLiteError) in
            let statement = try statement(.streamEnd)
            statement.bind(id, at: 1)
            defer { statement.reset() }
            guard try statement.step(), !statement.isNull(at: 0), !statement.isNull(at: 1) else { return nil }
            return StreamEnd(version: statement.int64(at: 0), position: statement.int64(at: 1))
        }
    }

    func readAll(from position: Int64, limit: Int) throws(EventStoreError) -> [RecordedEvent] {
        guard limit > 0 else { return [] }
        // In position order each event links to the row before it: only the first row's
        // predecessor is looked up.
        let check: LinkCheck =
            configuration.verifiesReads
            ? .inOrder(from: position, previous: try storedHash(at: position - 1)) : .none
        return try collect("reading the log", .readAll, stream: nil, check: check) { statement in
            statement.bind(position, at: 1)
            statement.bind(Int64(clamping: limit), at: 2)
        }
    }

    /// The head row and the last stored event, in one statement (one snapshot).
    func logEnd() throws(EventStoreError) -> LogEnd {
        try run("reading the end of the log") { () throws(SQLiteError) in
            let statement = try sql.cached(
                """
                SELECT (SELECT position FROM journal_head WHERE singleton = 1), \
                (SELECT hash FROM journal_head WHERE singleton = 1), \
                (SELECT max(position) FROM journal_events), \
                (SELECT hash FROM journal_events ORDER BY position DESC LIMIT 1)
                """)
            defer { statement.reset() }
            guard try statement.step() else {
                return LogEnd(headPosition: nil, headHash: nil, lastPosition: nil, lastHash: nil)
            }
            return LogEnd(
                headPosition: statement.isNull(at: 0) ? nil : statement.int64(at: 0),
                headHash: statement.isNull(at: 1) ? nil : statement.blob(at: 1),
                lastPosition: statement.isNull(at: 2) ? nil : statement.int64(at: 2),
                lastHash: statement.isNull(at: 3) ? nil : statement.blob(at: 3))
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
        try run("counting streams") { () throws(SQLiteError) in
            try sql.scalarInt("SELECT count(*) FROM journal_streams") ?? 0
        }
    }

    /// How `collect` checks each event against its chain link (`ChainLinkCheck`).
    enum LinkCheck {
        case none
        /// The statement selects `checkedColumns`: the previous row's hash is column 12.
        case previousColumn
        /// Rows in position order from `from`; `previous` is the stored hash at `from − 1`.
        case inOrder(from: Int64, previous: [UInt8]?)
    }

    func collect(
        _ what: @autoclosure () -> String, _ hot: Hot, stream: StreamName?, check: LinkCheck = .none,
        each: (RecordedEvent) throws(EventStoreError) -> Void = { _ in }, bind: (SQLiteStatement) -> Void
    ) throws(EventStoreError) -> [RecordedEvent] {
        let statement = try run(what()) { () throws(SQLiteError) in try self.statement(hot) }
        bind(statement)
        defer { statement.reset() }
        var events: [RecordedEvent] = []
        var inOrder: (expected: Int64, previous: [UInt8]?)?
        if case let .inOrder(from, previous) = check { inOrder = (max(from, 1), previous) }
        while try run(what(), { () throws(SQLiteError) in try statement.step() }) {
            let event = try decodeRow(statement, stream: stream)
            try each(event)
            switch check {
            case .none:
                break
            case .previousColumn:
                guard configuration.verifiesReads else { break }
                try ChainLinkCheck.check(
                    event, previous: statement.isNull(at: 12) ? nil : statement.blob(at: 12),
                    hasher: hasher)
            case .inOrder:
                let previous = event.position == inOrder?.expected ? inOrder?.previous : nil
                try ChainLinkCheck.check(event, previous: previous, hasher: hasher)
                inOrder = (event.position + 1, event.hash)
            }
            events.append(event)
        }
        return events
    }
}
