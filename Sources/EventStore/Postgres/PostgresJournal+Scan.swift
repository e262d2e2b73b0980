extension PostgresJournal: RowLending {
    /// The rows of `scanAll` and the lending `readAll` (``RowLending``), with the same checks and
    /// messages as the SQLite store's: the payload is lent from the result or decoded into a
    /// reused buffer, and the names lent from the result; `body` gets each event with its
    /// stream's and type's names when `lendsNames` or the chain check reads them, empty otherwise.
    func scanRows(
        from position: Int64, limit: Int, lendsNames: Bool,
        _ body: (ScannedEvent, _ stream: UnsafeRawBufferPointer, _ type: UnsafeRawBufferPointer) -> Bool
    ) throws(EventStoreError) -> Int {
        // Pages of rows: libpq fetches a whole result, and a consumer may stop early (the
        // projections stop at an event type they have not met yet, then scan on from there).
        var count = 0
        var next = position
        var chain =
            configuration.verifiesReads
            ? ScanChainCheck(from: position, previousHash: try storedHash(at: position - 1), limit: limit) : nil
        do throws(EventStoreError) {
            while count < limit {
                let page = min(limit - count, Self.scanPage)
                let (scanned, last, stopped) = try scanPage(
                    from: next, limit: page, chain: &chain, lendsNames: lendsNames, body)
                count += scanned
                guard !stopped, scanned == page, let last else { break }
                next = last + 1
            }
        } catch {
            // A link before the failing row that does not check is the first failure.
            try chain?.finish()
            throw error
        }
        try chain?.finish()
        return count
    }

    static let scanPage = 4_096

    /// One page of ``scanAll(from:limit:_:)``: events handed to `body`, the last position, and
    /// whether `body` asked to stop.
    /// `chain`: the chain check carried from page to page (nil when reads are not verified).
    private func scanPage(
        from position: Int64, limit: Int, chain: inout ScanChainCheck?, lendsNames: Bool,
        _ body: (ScannedEvent, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool
    ) throws(EventStoreError) -> (Int, Int64?, Bool) {
        let result = try run("reading the log") { () throws(PostgresError) in
            try pg.query(
                """
                SELECT e.position, e.stream_id, e.type_id, e.occurred_at, e.codec, e.data_len, e.meta_len, e.payload,
                       e.version, e.event_id, e.recorded_at, e.hash, s.name, t.name
                FROM (SELECT * FROM journal_events WHERE position >= $1 ORDER BY position LIMIT $2) e
                LEFT JOIN journal_streams s ON s.id = e.stream_id LEFT JOIN journal_types t ON t.id = e.type_id
                ORDER BY e.position
                """, [.int64(position), .int64(Int64(clamping: limit))])
        }
        var failure: EventStoreError?
        var count = 0
        var last: Int64?
        for row in 0..<result.rowCount {
            let at = result.int64(row, 0)
            last = at
            let keepGoing = try StoredPayload.withDecoded(
                codec: result.int64(row, 4), dataLength: Int(clamping: result.int64(row, 5)),
                metaLength: result.optionalInt64(row, 6).map { Int(clamping: $0) }, position: at,
                scratch: &payloadScratch, dictionary: { id throws(EventStoreError) in try self.dictionary(id) },
                bytes: { lend in result.withBytes(row, 7, lend) },
                { data, meta in
                    let named = chain != nil || lendsNames
                    if named && (result.isNull(row, 12) || result.isNull(row, 13)) {
                        failure = .integrity(at: at, "the event's stream or type is missing")
                        return false
                    }
                    return result.withBytes(row, 9) { id in
                        result.withBytes(row, 11) { hash in
                            let event = ScannedEvent(
                                position: at, streamID: result.int64(row, 1), typeID: result.int64(row, 2),
                                occurredAt: result.int64(row, 3), data: data, meta: meta,
                                version: result.int64(row, 8), recordedAt: result.int64(row, 10), storedID: id,
                                idIsPacked: id.count == 16, hash: hash)
                            guard named else {
                                let none = UnsafeRawBufferPointer(start: nil, count: 0)
                                return body(event, none, none)
                            }
                            return result.withBytes(row, 12) { stream in
                                result.withBytes(row, 13) { type in
                                    do throws(EventStoreError) {
                                        try chain?.check(
                                            position: at, version: event.version, stream: stream,
                                            id: id.count == 16 ? .packed(id) : .text(id), type: type,
                                            occurredAt: event.occurredAt, recordedAt: event.recordedAt, data: data,
                                            meta: meta, hash: hash)
                                    } catch {
                                        failure = error
                                        return false
                                    }
                                    return body(event, stream, type)
                                }
                            }
                        }
                    }
                })
            if let failure { throw failure }
            count += 1
            if !keepGoing { return (count, last, true) }
        }
        return (count, last, false)
    }

    /// The stored hash at `position` (nil before position 1 or when the row is missing).
    func storedHash(at position: Int64) throws(EventStoreError) -> [UInt8]? {
        guard position >= 1 else { return nil }
        let result = try run("reading the hash at position \(position)") { () throws(PostgresError) in
            try pg.query("SELECT hash FROM journal_events WHERE position = $1", [.int64(position)])
        }
        return result.rowCount == 1 ? result.bytes(0, 0) : nil
    }

    /// Stream names by id, from `fromID` on.
    func streamNames(fromID: Int64, limit: Int) throws(EventStoreError) -> [(id: Int64, name: String)] {
        guard limit > 0 else { return [] }
        let result = try run("listing streams by id") { () throws(PostgresError) in
            try pg.query(
                "SELECT id, name FROM journal_streams WHERE id >= $1 ORDER BY id LIMIT $2",
                [.int64(fromID), .int64(Int64(clamping: limit))])
        }
        return (0..<result.rowCount).map { (result.int64($0, 0), result.text($0, 1)) }
    }

    /// Stream names and recorded last positions by id, from `fromID` on.
    func streamEnds(fromID: Int64, limit: Int) throws(EventStoreError)
        -> [(id: Int64, name: String, lastPosition: Int64?)]
    {
        guard limit > 0 else { return [] }
        // A journal of an older schema, opened read-only, records no ends.
        guard hasStreamEnds else { return try streamNames(fromID: fromID, limit: limit).map { ($0.id, $0.name, nil) } }
        let result = try run("listing streams and their ends by id") { () throws(PostgresError) in
            try pg.query(
                "SELECT id, name, last_position FROM journal_streams WHERE id >= $1 ORDER BY id LIMIT $2",
                [.int64(fromID), .int64(Int64(clamping: limit))])
        }
        return (0..<result.rowCount).map { (result.int64($0, 0), result.text($0, 1), result.optionalInt64($0, 2)) }
    }

    /// The name of a stream or event type id (`table` is `journal_streams` or `journal_types`).
    func name(id: Int64, in table: String, what: String) throws(EventStoreError) -> String {
        let result = try run("looking up \(what) #\(id)") { () throws(PostgresError) in
            try pg.query("SELECT name FROM \(table) WHERE id = $1", [.int64(id)])
        }
        guard result.rowCount == 1 else {
            throw EventStoreError(code: .integrity, message: "\(what) #\(id) is missing")
        }
        return result.text(0, 0)
    }
}
