import JournalCore

extension PostgresJournal {
    /// Decodes row `row` of a result selecting `columns` (names joined in, so a missing stream or
    /// type row is reported as damage at the event's position).
    func decode(_ result: PostgresResult, _ row: Int) throws(EventStoreError) -> RecordedEvent {
        let position = result.int64(row, 0)
        guard !result.isNull(row, 1), let stream = try? StreamName(result.text(row, 1)) else {
            throw .integrity(at: position, "stream #\(result.int64(row, 12)) is missing or has an invalid name")
        }
        guard !result.isNull(row, 4) else { throw .integrity(at: position, "the event's type is missing") }
        let id = result.withBytes(row, 3) { bytes in
            bytes.count == 16 ? EventIDCoding.text(packed: bytes) : String(decoding: bytes, as: UTF8.self)
        }
        let (data, meta) = try decodePayload(result, row, position: position)
        return RecordedEvent(
            position: position, stream: stream, version: result.int64(row, 2), id: id,
            type: result.text(row, 4),
            occurredAt: Timestamp(millisecondsSinceEpoch: result.int64(row, 5)),
            recordedAt: Timestamp(millisecondsSinceEpoch: result.int64(row, 6)),
            data: data, meta: meta, hash: result.bytes(row, 11))
    }

    /// Data and meta from columns 7…10 (codec, data_len, meta_len, payload): the SQLite store's
    /// format.
    private func decodePayload(_ result: PostgresResult, _ row: Int, position: Int64)
        throws(EventStoreError) -> ([UInt8], [UInt8]?)
    {
        let codec = result.int64(row, 7)
        let dataLength = Int(result.int64(row, 8))
        let metaLength = result.optionalInt64(row, 9).map { Int($0) }
        return try StoredPayload.decode(
            codec: codec, dataLength: dataLength, metaLength: metaLength, position: position,
            scratch: &payloadScratch,
            dictionary: { id throws(EventStoreError) in try self.dictionary(id) },
            bytes: { body in result.withBytes(row, 10, body) })
    }

    /// `checked`: `sql` was made by `events(_:order:checked: true)`, and each event is checked
    /// against its chain link when the configuration says so.
    private func collect(
        _ what: @autoclosure () -> String, _ sql: String, _ parameters: [PostgresValue],
        checked: Bool = false, each: (RecordedEvent) throws(EventStoreError) -> Void = { _ in }
    ) throws(EventStoreError) -> [RecordedEvent] {
        let result = try run(what()) { () throws(PostgresError) in try pg.query(sql, parameters) }
        return try events(of: result, checked: checked, each: each)
    }

    /// The events of a result selecting `columns` (see `collect`).
    private func events(
        of result: PostgresResult, checked: Bool, each: (RecordedEvent) throws(EventStoreError) -> Void
    ) throws(EventStoreError) -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        events.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount {
            let event = try decode(result, row)
            try each(event)
            if checked && configuration.verifiesReads {
                try ChainLinkCheck.check(
                    event, previous: result.isNull(row, 13) ? nil : result.bytes(row, 13),
                    hasher: hasher)
            }
            events.append(event)
        }
        return events
    }

    // MARK: - Reads

    func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent]
    {
        guard limit > 0 else { return [] }
        try flush()
        let sql: String
        switch direction {
        case .forward:
            sql = Self.events(
                """
                SELECT * FROM journal_events WHERE stream_id = (SELECT id FROM journal_streams WHERE name = $1)
                AND version >= $2 ORDER BY version LIMIT $3
                """, order: "e.version", checked: true)
        case .backward:
            sql = Self.events(
                """
                SELECT * FROM journal_events WHERE stream_id = (SELECT id FROM journal_streams WHERE name = $1)
                AND version <= $2 ORDER BY version DESC LIMIT $3
                """, order: "e.version DESC", checked: true)
        }
        let parameters: [PostgresValue] = [.text(stream.rawValue), .int64(version), .int64(Int64(clamping: limit))]
        guard hasStreamEnds else {
            var versions = StreamVersionCheck(stream: stream, from: version, direction: direction)
            let events = try collect(
                "reading stream \(stream)", sql, parameters, checked: true,
                each: { event throws(EventStoreError) in try versions.check(event) })
            try versions.finish(limit: limit)
            return events
        }
        // The stream's recorded end first, then its events, in one round trip: each statement
        // sees what was committed when it ran (READ COMMITTED), so the events are at least as
        // recent as the end, and a read that stops short of it has found events gone.
        let results = try run("reading stream \(stream)") { () throws(PostgresError) in
            try pg.pipeline([
                PostgresStatement(
                    "SELECT last_version, last_position FROM journal_streams WHERE name = $1",
                    [.text(stream.rawValue)]),
                PostgresStatement(sql, parameters)
            ])
        }
        guard results.count == 2 else {
            throw EventStoreError(code: .io, message: "reading stream \(stream): the server answered no rows")
        }
        let ends = results[0]
        let recorded =
            ends.rowCount == 1 && !ends.isNull(0, 0) && !ends.isNull(0, 1)
            ? StreamEnd(version: ends.int64(0, 0), position: ends.int64(0, 1)) : nil
        var versions = StreamVersionCheck(stream: stream, from: version, direction: direction, recorded: recorded)
        let events = try events(
            of: results[1], checked: true, each: { event throws(EventStoreError) in try versions.check(event) })
        try versions.finish(limit: limit)
        return events
    }

    func readAll(from position: Int64, limit: Int) throws(EventStoreError) -> [RecordedEvent] {
        guard limit > 0 else { return [] }
        return try collect(
            "reading the log",
            Self.events(
                "SELECT * FROM journal_events WHERE position >= $1 ORDER BY position LIMIT $2",
                checked: true),
            [.int64(position), .int64(Int64(clamping: limit))], checked: true)
    }

    func storedEvent(id: String) throws(EventStoreError) -> RecordedEvent? {
        if let known = write?.stored[id] { return known }
        if write?.absent.contains(id) == true { return nil }
        try flush()
        return try collect(
            "looking up event \(id.prefix(60))",
            Self.events("SELECT * FROM journal_events WHERE event_id = $1"), [.bytea(Self.storedID(id))]
        ).first
    }

    func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64? {
        if let known = write?.streams[stream.rawValue] { return known.version }
        try flush()
        let result = try run("reading the version of \(stream)") { () throws(PostgresError) in
            try pg.query(
                """
                SELECT max(e.version) FROM journal_events e \
                JOIN journal_streams s ON s.id = e.stream_id WHERE s.name = $1
                """, [.text(stream.rawValue)])
        }
        return result.optionalInt64(0, 0)
    }

    func headPosition() throws(EventStoreError) -> Int64 {
        if let write { return write.headPosition }
        let result = try run("reading the journal head") { () throws(PostgresError) in
            try pg.query("SELECT position FROM journal_head WHERE singleton = 1")
        }
        return result.rowCount == 1 ? result.int64(0, 0) : 0
    }

    /// The head row and the last stored event, in one statement (one snapshot).
    func logEnd() throws(EventStoreError) -> LogEnd {
        let result = try run("reading the end of the log") { () throws(PostgresError) in
            try pg.query(
                """
                SELECT (SELECT position FROM journal_head WHERE singleton = 1), \
                (SELECT hash FROM journal_head WHERE singleton = 1), \
                (SELECT max(position) FROM journal_events), \
                (SELECT hash FROM journal_events ORDER BY position DESC LIMIT 1)
                """)
        }
        guard result.rowCount == 1 else {
            return LogEnd(headPosition: nil, headHash: nil, lastPosition: nil, lastHash: nil)
        }
        return LogEnd(
            headPosition: result.optionalInt64(0, 0), headHash: result.isNull(0, 1) ? nil : result.bytes(0, 1),
            lastPosition: result.optionalInt64(0, 2), lastHash: result.isNull(0, 3) ? nil : result.bytes(0, 3))
    }

    func streams(category: String?) throws(EventStoreError) -> [StreamName] {
        let result = try run("listing streams") { () throws(PostgresError) in
            if let category {
                // Names compare by bytes (COLLATE "C"): `category-` … `category.` is the category.
                return try pg.query(
                    "SELECT name FROM journal_streams WHERE name > $1 AND name < $2 ORDER BY name",
                    [.text(category + "-"), .text(category + ".")])
            }
            return try pg.query("SELECT name FROM journal_streams ORDER BY name")
        }
        return (0..<result.rowCount).compactMap { try? StreamName(result.text($0, 0)) }
    }

    // MARK: - Verify

    /// Walks the whole log in one REPEATABLE READ snapshot, a page at a time, and checks the rule
    /// written in `ChainHasher.swift` and the stored Merkle tree (`TreeVerifier`): the same
    /// checks, messages and positions as the SQLite store.
    func verify(pageSize: Int = 5_000, progress: (_ checked: Int64) -> Void = { _ in })
        throws(EventStoreError) -> VerifyReport
    {
        try run("starting a read transaction") { () throws(PostgresError) in
            try pg.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        }
        defer { pg.rollback() }
        let headRow = try run("reading the journal head") { () throws(PostgresError) in
            try pg.query("SELECT position, hash FROM journal_head WHERE singleton = 1")
        }
        let head = headRow.rowCount == 1 ? (headRow.int64(0, 0), headRow.bytes(0, 1)) : (0, ChainHasher.zeroHash)
        var verifier = ChainVerifier(hasher: hasher)
        var tree = TreeVerifier(hasher: hasher)
        let storedTile = { (level: Int, index: Int64) throws(EventStoreError) -> [UInt8] in
            try self.treeTile(level: level, index: index)
        }
        var next: Int64 = Int64.min
        var checked: Int64 = 0
        while true {
            let page = try run("reading the log") { () throws(PostgresError) in
                try pg.query(
                    Self.events("SELECT * FROM journal_events WHERE position >= $1 ORDER BY position LIMIT $2"),
                    [.int64(next), .int64(Int64(pageSize))])
            }
            if page.rowCount == 0 { break }
            for row in 0..<page.rowCount {
                let position = page.int64(row, 0)
                var decoded: RecordedEvent?
                try verifier.check(
                    position: position, streamID: page.int64(row, 12),
                    version: page.int64(row, 2)
                ) { () throws(EventStoreError) in
                    let event = try decode(page, row)
                    decoded = event
                    return event
                }
                if hasTree, let decoded { try tree.add(decoded, storedTile: storedTile) }
                next = position + 1
            }
            checked += Int64(page.rowCount)
            progress(checked)
        }
        let report = try verifier.finish(headPosition: head.0, headHash: head.1)
        if hasTree { try tree.finish(storedTile: storedTile) }
        if hasStreamEnds { try verifyStreamEnds(verifier, headPosition: report.headPosition) }
        return report
    }

    /// Every stream's recorded end must be its last event as the walk found it (in the walk's
    /// snapshot), as on SQLite.
    private func verifyStreamEnds(_ verifier: ChainVerifier, headPosition: Int64) throws(EventStoreError) {
        let rows = try run("reading the streams' last events") { () throws(PostgresError) in
            try pg.query("SELECT id, name, last_version, last_position FROM journal_streams ORDER BY id")
        }
        var check = StreamEnd.Check(head: headPosition)
        for row in 0..<rows.rowCount {
            let recorded =
                rows.isNull(row, 2) || rows.isNull(row, 3)
                ? nil : StreamEnd(version: rows.int64(row, 2), position: rows.int64(row, 3))
            let stored = verifier.end(of: rows.int64(row, 0))
            if recorded != stored { check.add(stream: rows.text(row, 1), recorded: recorded, stored: stored) }
        }
        try check.finish()
    }
}
