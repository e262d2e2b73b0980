extension SQLiteJournal {
    /// The log from `position`, lent row by row (see ``EventScanning``): the payload is decoded
    /// into a reused buffer, names stay integer ids.
    func scanAll(from position: Int64, limit: Int, _ body: (ScannedEvent) -> Bool) throws(EventStoreError) -> Int {
        guard limit > 0 else { return 0 }
        let statement = try run("reading the log") { () throws(SQLiteError) in
            try sql.cached(
                """
                SELECT position, stream_id, type_id, occurred_at, codec, data_len, meta_len, payload,
                       version, event_id, recorded_at, hash
                FROM journal_events WHERE position >= ? ORDER BY position LIMIT ?
                """)
        }
        var chain =
            configuration.verifiesReads
            ? ScanChainCheck(from: position, previousHash: try storedHash(at: position - 1), hasher: hasher) : nil
        var failure: EventStoreError?
        statement.bind(position, at: 1)
        statement.bind(Int64(clamping: limit), at: 2)
        defer { statement.reset() }
        // The scratch buffer and the last dictionary used are locals for the loop: no
        // exclusivity check and no dictionary lookup per event.
        var scratch: [UInt8] = []
        swap(&scratch, &payloadScratch)
        defer { swap(&scratch, &payloadScratch) }
        var lastDictionary: LZ4Dictionary?
        var count = 0
        while try run("reading the log", { () throws(SQLiteError) in try statement.step() }) {
            let at = statement.int64(at: 0)
            let keepGoing = try StoredPayload.withDecoded(
                codec: statement.int64(at: 4), dataLength: statement.int(at: 5),
                metaLength: statement.isNull(at: 6) ? nil : statement.int(at: 6), position: at,
                scratch: &scratch,
                dictionary: { id throws(EventStoreError) in
                    if let last = lastDictionary, last.id == id { return last }
                    let found = try self.dictionary(id)
                    lastDictionary = found
                    return found
                },
                bytes: { lend in statement.withBlob(at: 7, lend) },
                { data, meta in
                    if chain != nil {
                        do throws(EventStoreError) {
                            try chain?.check(
                                position: at, version: statement.int64(at: 8),
                                stream: try streamName(of: statement.int64(at: 1)).rawValue,
                                id: try storedID(statement, column: 9, position: at),
                                type: try typeName(of: statement.int64(at: 2)), occurredAt: statement.int64(at: 3),
                                recordedAt: statement.int64(at: 10), data: data, meta: meta,
                                hash: statement.blob(at: 11))
                        } catch {
                            failure = error.located(at: at)
                            return false
                        }
                    }
                    return body(
                        ScannedEvent(
                            position: at, streamID: statement.int64(at: 1), typeID: statement.int64(at: 2),
                            occurredAt: statement.int64(at: 3), data: data, meta: meta))
                })
            if let failure { throw failure }
            count += 1
            if !keepGoing { break }
        }
        try chain?.finish()
        return count
    }

    /// The stored hash at `position` (nil before position 1 or when the row is missing).
    func storedHash(at position: Int64) throws(EventStoreError) -> [UInt8]? {
        guard position >= 1 else { return nil }
        return try run("reading the hash at position \(position)") { () throws(SQLiteError) in
            let statement = try sql.cached("SELECT hash FROM journal_events WHERE position = ?")
            statement.bind(position, at: 1)
            defer { statement.reset() }
            return try statement.step() ? statement.blob(at: 0) : nil
        }
    }

    /// Stream names by id, from `fromID` on.
    func streamNames(fromID: Int64, limit: Int) throws(EventStoreError) -> [(id: Int64, name: String)] {
        guard limit > 0 else { return [] }
        return try run("listing streams by id") { () throws(SQLiteError) in
            let statement = try sql.cached("SELECT id, name FROM journal_streams WHERE id >= ? ORDER BY id LIMIT ?")
            statement.bind(fromID, at: 1)
            statement.bind(Int64(clamping: limit), at: 2)
            defer { statement.reset() }
            var result: [(id: Int64, name: String)] = []
            result.reserveCapacity(min(limit, 65_536))
            while try statement.step() { result.append((statement.int64(at: 0), statement.text(at: 1))) }
            return result
        }
    }
}
