import JournalCore

extension PostgresJournal {
    /// Appends one stream's events inside the open write transaction: the same rules as the
    /// SQLite store (see `SQLiteEventStore`), decided here on the client. Holding the append lock,
    /// what the transaction looked up is authoritative (no other writer can change it), so
    /// expected versions and duplicate ids are checked before anything is sent; the rows go out
    /// with the commit's pipeline.
    ///
    /// Failure-atomic: every rule is checked (`preflight`) before the `WriteState` changes, so a
    /// refused append leaves the transaction exactly as it was. The state is then changed in
    /// place (taken out of `write`, so its buffers are not copied for every append).
    func append(_ request: StreamAppend) throws(EventStoreError) -> AppendResult {
        guard write != nil else { preconditionFailure("append outside a write transaction") }
        let stream = request.stream
        try EventRules.validate(request.events, stream: stream, maxPayloadBytes: configuration.maxPayloadBytes)
        try ensureKnown(streams: [stream.rawValue], ids: request.events.map(\.id))
        guard write != nil else {
            throw EventStoreError(code: .io, message: "the write transaction was aborted by an earlier error")
        }
        let now = configuration.clock()
        if let duplicates = try preflight(request, now: now) {
            return duplicates
        }
        var state = write!
        write = nil
        let known = state.streams[stream.rawValue] ?? (nil, nil)
        var streamID = known.id
        var positions: [Int64] = []
        positions.reserveCapacity(request.events.count)
        var version = known.version
        var written = 0
        for event in request.events {
            if let stored = state.stored[event.id] {
                positions.append(stored.position)
                continue
            }
            let sid: Int64
            if let streamID {
                sid = streamID
            } else {
                sid = state.nextStreamID
                state.nextStreamID += 1
                state.newStreams[stream.rawValue] = sid
                state.pending.append(
                    PostgresStatement(
                        "INSERT INTO journal_streams(id, name) VALUES ($1, $2)",
                        [.int64(sid), .text(stream.rawValue)]))
                streamID = sid
            }
            let typeID: Int64
            do {
                typeID = try internType(event.type, &state)
            } catch {
                write = state
                rollbackWrite()
                throw error
            }
            let position = state.headPosition + 1
            let nextVersion = (version ?? -1) + 1
            let recordedAt = event.recordedAt ?? now
            let hash = event.data.withUnsafeBytes { data in
                OptionalBytes.with(event.meta) { meta in
                    hasher.hash(
                        previous: state.headHash, position: position, version: nextVersion,
                        stream: stream.rawValue, id: event.id, type: event.type,
                        occurredAt: event.occurredAt, recordedAt: recordedAt, data: data, meta: meta)
                }
            }
            let (codec, payload) = encodePayload(event, dictionaryID: state.dictionaryID)
            state.pendingRows.append(
                position: position, streamID: sid, version: nextVersion,
                eventID: Self.storedID(event.id), typeID: typeID,
                occurredAt: event.occurredAt.millisecondsSinceEpoch,
                recordedAt: recordedAt.millisecondsSinceEpoch, codec: codec,
                dataLength: Int64(event.data.count), metaLength: event.meta.map { Int64($0.count) },
                payload: payload, hash: hash)
            state.stored[event.id] = RecordedEvent(
                position: position, stream: stream, version: nextVersion, id: event.id,
                type: event.type, occurredAt: event.occurredAt, recordedAt: recordedAt,
                data: event.data, meta: event.meta, hash: hash)
            state.absent.remove(event.id)
            hasher.appendLeafHash(
                of: event, stream: stream, position: position, version: nextVersion,
                recordedAt: recordedAt, hash: hash, to: &state.leafHashes)
            state.headPosition = position
            state.headHash = hash
            state.written += 1
            version = nextVersion
            written += 1
            positions.append(position)
        }
        state.streams[stream.rawValue] = (streamID, version)
        if written > 0, let streamID, let version {
            state.ends[streamID] = StreamEnd(version: version, position: state.headPosition)
        }
        write = state
        return AppendResult(stream: stream, positions: positions, lastVersion: version, written: written)
    }

    /// Checks every rule of an append against the open transaction without changing it. Returns
    /// the result of an append that is all duplicates of a committed retry (expected version no
    /// longer holding); nil when the append may go ahead; throws a conflict or a duplicate-id
    /// conflict (also for an id repeated inside the request with other content).
    private func preflight(_ request: StreamAppend, now: Timestamp) throws(EventStoreError) -> AppendResult? {
        guard let state = write else { return nil }
        let stream = request.stream
        let current = state.streams[stream.rawValue]?.version ?? nil
        if !SQLiteJournal.satisfies(request.expectedVersion, current) {
            if !request.events.isEmpty, request.events.allSatisfy({ state.stored[$0.id] != nil }) {
                var positions: [Int64] = []
                for event in request.events {
                    positions.append(try duplicatePosition(state.stored[event.id]!, event, stream: stream))
                }
                return AppendResult(stream: stream, positions: positions, lastVersion: current, written: 0)
            }
            throw .conflict(stream: stream, expected: request.expectedVersion, actual: current)
        }
        var firstInRequest: [String: RecordedEvent] = [:]
        var position = state.headPosition
        for event in request.events {
            if let stored = state.stored[event.id] ?? firstInRequest[event.id] {
                _ = try duplicatePosition(stored, event, stream: stream)
                continue
            }
            position += 1
            firstInRequest[event.id] = RecordedEvent(
                position: position, stream: stream, version: 0, id: event.id,
                type: event.type, occurredAt: event.occurredAt,
                recordedAt: event.recordedAt ?? now, data: event.data,
                meta: event.meta, hash: [])
        }
        return nil
    }

    private func duplicatePosition(_ stored: RecordedEvent, _ event: ProposedEvent, stream: StreamName)
        throws(EventStoreError) -> Int64
    {
        guard stored.stream == stream, configuration.isSameContent(stored, event) else {
            throw .duplicateID(event.id, stream: stream, storedStream: stored.stream, position: stored.position)
        }
        return stored.position
    }

    /// A type's id: cached, created earlier in this transaction, stored (reloads the small types
    /// table once), or new.
    private func internType(_ type: String, _ state: inout WriteState) throws(EventStoreError) -> Int64 {
        if let id = typeIDs[type] ?? state.newTypes[type] { return id }
        let rows = try run("loading event types") { () throws(PostgresError) in
            try pg.query("SELECT id, name FROM journal_types WHERE id < $1", [.int64(state.firstNewTypeID)])
        }
        for row in 0..<rows.rowCount { typeIDs[rows.text(row, 1)] = rows.int64(row, 0) }
        if let id = typeIDs[type] { return id }
        let id = state.nextTypeID
        state.nextTypeID += 1
        state.newTypes[type] = id
        state.pending.append(
            PostgresStatement("INSERT INTO journal_types(id, name) VALUES ($1, $2)", [.int64(id), .text(type)]))
        return id
    }

    /// The stored payload: data ‖ meta, LZ4-compressed against the dictionary when that saves at
    /// least one byte (codec = dictionary id), else raw (codec 0). The SQLite store's format.
    private func encodePayload(_ event: ProposedEvent, dictionaryID: Int64?) -> (codec: Int64, payload: [UInt8]) {
        payloadScratch.removeAll(keepingCapacity: true)
        payloadScratch.append(contentsOf: event.data)
        if let meta = event.meta { payloadScratch.append(contentsOf: meta) }
        if let dictionaryID, let dictionary = try? dictionary(dictionaryID),
            let size = payloadScratch.withUnsafeBytes({
                StoredPayload.compress($0, with: dictionary, scratch: &compressScratch)
            })
        {
            return (dictionaryID, Array(compressScratch[..<size]))
        }
        return (0, payloadScratch)
    }

    /// Builds and stores dictionary 1 from events 1…n once the journal has n events, exactly as
    /// the SQLite store does (`LZ4Dictionary.train` over the same samples gives the same bytes).
    /// Called when a transaction starts and before each append of a `write { }` (never between
    /// the parts of one request, because it sends what is pending), so events from the next
    /// transaction or append on are compressed.
    func trainDictionaryIfDue() throws(EventStoreError) {
        let threshold = configuration.dictionaryTrainingEvents
        guard threshold > 0, !dictionaryTrainingSkipped, let state = write, state.dictionaryID == nil,
            state.headPosition >= threshold
        else { return }
        try flush()
        let rows = try run("reading events to train the compression dictionary") { () throws(PostgresError) in
            try pg.query(
                "SELECT type_id, payload FROM journal_events WHERE position <= $1 AND codec = 0 ORDER BY position",
                [.int64(threshold)])
        }
        var samples: [(type: Int64, payload: [UInt8])] = []
        samples.reserveCapacity(rows.rowCount)
        for row in 0..<rows.rowCount { samples.append((rows.int64(row, 0), rows.bytes(row, 1))) }
        let content = LZ4Dictionary.train(samples: samples, maxSize: configuration.dictionarySize)
        guard !content.isEmpty else {
            dictionaryTrainingSkipped = true
            return
        }
        let id: Int64 = 1
        write?.pending.append(
            PostgresStatement(
                """
                INSERT INTO journal_dictionaries(id, codec, content, sha256, trained_through) \
                VALUES ($1, 'lz4', $2, $3, $4)
                """, [.int64(id), .bytea(content), .bytea(hasher.digest(content)), .int64(threshold)]))
        dictionaries[id] = LZ4Dictionary(id: id, content: content)
        write?.dictionaryID = id
        write?.trainedDictionary = true
    }
}
