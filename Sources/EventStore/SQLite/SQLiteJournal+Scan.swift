extension SQLiteJournal: RowLending {
    /// The rows of `scanAll` and the lending `readAll` (``RowLending``): the payload is decoded
    /// into a reused buffer; `body` gets each event with its stream's and type's names when
    /// `lendsNames` or the chain check looks them up, empty otherwise.
    func scanRows(
        from position: Int64, limit: Int, lendsNames: Bool,
        _ body: (ScannedEvent, _ stream: UnsafeRawBufferPointer, _ type: UnsafeRawBufferPointer) -> Bool
    ) throws(EventStoreError) -> Int {
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
            ? ScanChainCheck(from: position, previousHash: try storedHash(at: position - 1), limit: limit) : nil
        var failure: EventStoreError?
        statement.bind(position, at: 1)
        statement.bind(Int64(clamping: limit), at: 2)
        defer { statement.reset() }
        // The scratch buffer, the last dictionary used and the names of the chain check are
        // locals for the loop: no exclusivity check and no dictionary lookup per event.
        var scratch: [UInt8] = []
        swap(&scratch, &payloadScratch)
        defer { swap(&scratch, &payloadScratch) }
        // Names learned inside a write transaction may be its own (rolled back later): they are
        // kept for this scan only.
        let streams = write == nil ? linkStreamNames : Self.newLinkStreamNames()
        let types = write == nil ? linkTypeNames : Self.newLinkTypeNames()
        var lastDictionary: LZ4Dictionary?
        var count = 0
        do throws(EventStoreError) {
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
                        let event = ScannedEvent(
                            position: at, streamID: statement.int64(at: 1), typeID: statement.int64(at: 2),
                            occurredAt: statement.int64(at: 3), data: data, meta: meta, version: statement.int64(at: 8),
                            recordedAt: statement.int64(at: 10), storedID: statement.blobBytes(at: 9),
                            idIsPacked: statement.isBlob(at: 9), hash: statement.blobBytes(at: 11))
                        guard chain != nil || lendsNames else { return body(event, Self.noName, Self.noName) }
                        do throws(EventStoreError) {
                            return try withLinkNames(
                                position: at, streamID: event.streamID, typeID: event.typeID,
                                storedID: event.storedID, idIsPacked: event.idIsPacked, streams: streams, types: types
                            ) { stream, type, id throws(EventStoreError) in
                                try chain?.check(
                                    position: at, version: event.version, stream: stream, id: id, type: type,
                                    occurredAt: event.occurredAt, recordedAt: event.recordedAt, data: event.data,
                                    meta: event.meta, hash: event.hash)
                                return body(event, stream, type)
                            }
                        } catch {
                            failure = error.located(at: at)
                            return false
                        }
                    })
                if let failure { throw failure }
                count += 1
                if !keepGoing { break }
            }
        } catch {
            // A link before the failing row that does not check is the first failure.
            try chain?.finish()
            throw error
        }
        try chain?.finish()
        return count
    }

    /// The name lent when none is looked up.
    private static var noName: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: nil, count: 0) }

    /// Lends `body` what a row's chain link spells besides its columns: the UTF-8 names of its
    /// stream and type, from `streams` and `types` (stream names read a page at a time), and
    /// its stored id (16 packed bytes, or text).
    /// - Throws: `.integrity` at `position` for a stream or type without a name, or a damaged
    ///   id; `body`'s errors.
    func withLinkNames<R>(
        position: Int64, streamID: Int64, typeID: Int64, storedID: UnsafeRawBufferPointer, idIsPacked: Bool,
        streams: LinkNames, types: LinkNames,
        _ body: (_ stream: UnsafeRawBufferPointer, _ type: UnsafeRawBufferPointer, _ id: LinkBatch.ID)
            throws(EventStoreError) -> R
    ) throws(EventStoreError) -> R {
        let stream: UnsafeRawBufferPointer
        let type: UnsafeRawBufferPointer
        do {
            stream = try streams.name(of: streamID) { id, names throws(EventStoreError) in
                try self.streamNameLoadingNext(id, into: names)
            }
            // Another table: the stream's bytes stay valid.
            type = try types.name(of: typeID) { id, _ throws(EventStoreError) in try self.typeName(of: id) }
        } catch {
            throw error.located(at: position)
        }
        guard !idIsPacked || storedID.count == 16 else {
            throw .integrity(at: position, "the stored event id is damaged")
        }
        return try body(stream, type, idIsPacked ? .packed(storedID) : .text(storedID))
    }

    /// The name of stream `id`, the names of the streams after it kept in `names` on the way (a
    /// scan meets streams in about the order they were created): one query for many streams.
    private func streamNameLoadingNext(_ id: Int64, into names: LinkNames) throws(EventStoreError) -> String {
        // A stream read with an earlier page whose slot another took since (a log whose active
        // streams span more ids than the table holds): read alone, not with a page after it.
        if id <= names.pagedThrough { return try streamName(of: id).rawValue }
        var found: String?
        try forEachStream(from: id, limit: Self.linkNamesPage) { other, statement in
            // The names are kept as stored: a name changed behind the journal's back fails its
            // events' links.
            if other == id {
                found = statement.text(at: 1)
            } else {
                names.remember(other, statement.blobBytes(at: 1))
            }
            names.pagedThrough = max(names.pagedThrough, other)
        }
        // A stream with no row: the usual lookup says what is wrong.
        if let found { return found }
        return try streamName(of: id).rawValue
    }

    /// Stream names a scan's chain check reads at a time.
    static let linkNamesPage = 4_096

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

    /// Stream names and recorded last positions by id, from `fromID` on.
    func streamEnds(fromID: Int64, limit: Int) throws(EventStoreError)
        -> [(id: Int64, name: String, lastPosition: Int64?)]
    {
        guard limit > 0 else { return [] }
        // A journal of an older schema, opened without upgrading, records no ends.
        guard hasStreamEnds else { return try streamNames(fromID: fromID, limit: limit).map { ($0.id, $0.name, nil) } }
        return try run("listing streams and their ends by id") { () throws(SQLiteError) in
            let statement = try sql.cached(
                "SELECT id, name, last_position FROM journal_streams WHERE id >= ? ORDER BY id LIMIT ?")
            statement.bind(fromID, at: 1)
            statement.bind(Int64(clamping: limit), at: 2)
            defer { statement.reset() }
            var result: [(id: Int64, name: String, lastPosition: Int64?)] = []
            result.reserveCapacity(min(limit, 65_536))
            while try statement.step() {
                let end = statement.isNull(at: 2) ? nil : statement.int64(at: 2)
                result.append((statement.int64(at: 0), statement.text(at: 1), end))
            }
            return result
        }
    }
}
