import JournalCore

extension SQLiteJournal {
    // MARK: - Transactions

    /// `BEGIN IMMEDIATE` (takes the file's write lock, waiting up to the busy timeout), then reads
    /// the head, so that positions continue whatever other processes committed.
    func beginWrite() throws(EventStoreError) {
        precondition(write == nil, "nested write transaction")
        if configuration.readOnly || sql.isReadOnly {
            throw EventStoreError(code: .readOnly, message: "\(path) is open read-only: appends are refused")
        }
        try run("starting a write transaction on \(path)") { () throws(SQLiteError) in try sql.begin(.immediate) }
        do {
            let head = try self.head()
            var state = WriteState(headPosition: head.position, headHash: head.hash)
            try syncRecentIDs(head: head.position)
            state.dictionaryID = try run("reading the dictionary version") { () throws(SQLiteError) in
                try sql.scalarInt("SELECT max(id) FROM journal_dictionaries")
            }
            write = state
            try trainDictionaryIfDue()
        } catch {
            rollbackWrite()
            throw error
        }
    }

    /// Moves the head, commits, and only then publishes what the transaction learned to the caches.
    func commitWrite() throws(EventStoreError) {
        if write?.written ?? 0 > 0 { try copyIDsIfDue() }
        guard write != nil else { return }
        do {
            try flushTree()
            try writeStreamEnds()
        } catch {
            rollbackWrite()
            throw error
        }
        guard let state = write else { return }
        do {
            try run("committing to \(path)") { () throws(SQLiteError) in
                if state.written > 0 {
                    let statement = try sql.cached("UPDATE journal_head SET position = ?, hash = ? WHERE singleton = 1")
                    statement.bind(state.headPosition, at: 1)
                    statement.bind(blob: state.headHash, at: 2)
                    try statement.run()
                }
                try sql.commit()
            }
        } catch {
            rollbackWrite()
            throw error
        }
        write = nil
        loadIDs?.commitPending()
        recentIDs.loaded(through: state.headPosition)
        for (stream, id) in state.newStreams { cacheStream(stream, id: id) }
        for (name, id) in state.newTypes {
            typeIDs[name] = id
            typeNames[id] = name
        }
        if newJournalStreams != nil {
            for (id, version) in state.versions { newJournalStreams?.committed(version, of: id) }
        }
    }

    /// Runs `body` in a write transaction of its own: commit when it returns, roll back when it throws.
    func inWriteTransaction<R>(_ body: () throws(EventStoreError) -> R) throws(EventStoreError) -> R {
        try beginWrite()
        do {
            let result = try body()
            try commitWrite()
            return result
        } catch {
            rollbackWrite()
            throw error
        }
    }

    /// Rolls back and forgets everything the transaction learned.
    func rollbackWrite() {
        if let state = write {
            forgetIDs(ofTransaction: state)
            if let id = state.dictionaryID, state.trainedDictionary { dictionaries.removeValue(forKey: id) }
        }
        sql.rollback()
        write = nil
    }

    /// Runs `body` under a savepoint: when it throws, its statements and its `WriteState` changes
    /// are undone and the transaction goes on. When SQLite itself aborted the whole transaction
    /// (`SQLITE_FULL`, an I/O error), `write` is nil afterwards and the caller must give up.
    func withSavepoint<R>(_ body: () throws(EventStoreError) -> R) throws(EventStoreError) -> R {
        guard let mark = write?.mark else { preconditionFailure("savepoint outside a write transaction") }
        try run("opening a savepoint") { () throws(SQLiteError) in try statement(.savepoint).run() }
        write?.openSavepoint()
        do {
            let result = try body()
            write?.releaseSavepoint()
            try run("releasing a savepoint") { () throws(SQLiteError) in try statement(.release).run() }
            if write?.savepoints == 0 { try maintainBetweenAppends() }
            return result
        } catch {
            if sql.isAutocommit || write == nil {
                rollbackWrite()
            } else {
                _ = try? statement(.rollbackTo).run()
                _ = try? statement(.release).run()
                if let current = write, current.trainedDictionary, !mark.trainedDictionary,
                    let id = current.dictionaryID
                {
                    dictionaries.removeValue(forKey: id)
                }
                if let current = write { forgetIDs(ofSavepoint: current, since: mark) }
                write?.rollback(to: mark)
            }
            throw error
        }
    }

    /// What a long transaction does between appends, outside savepoints: copies the tail's ids
    /// into the index, writes full tiles of the tree, and bounds the per-stream maps.
    func maintainBetweenAppends() throws(EventStoreError) {
        try copyIDsIfDue()
        try flushTreeIfDue()
        try writeStreamEndsIfDue()
        spillStreamBookkeepingIfDue()
    }

    /// Records the new end of each stream the open transaction appended to in `journal_streams`:
    /// one UPDATE per stream, in id order, whatever the number of its events.
    func writeStreamEnds() throws(EventStoreError) {
        guard let state = write, !state.ends.isEmpty, state.savepoints == 0, let ends = write?.takeEnds() else {
            return
        }
        try run("recording the streams' last events") { () throws(SQLiteError) in
            let statement = try statement(.recordStreamEnd)
            for id in ends.keys.sorted() {
                guard let end = ends[id] else { continue }
                statement.bind(end.version, at: 1)
                statement.bind(end.position, at: 2)
                statement.bind(id, at: 3)
                try statement.run()
            }
        }
    }

    /// `writeStreamEnds()` once a long transaction (a 10-million-line import) has appended to
    /// `transactionStreamMemory` streams, which bounds its memory (outside savepoints).
    func writeStreamEndsIfDue() throws(EventStoreError) {
        guard let state = write, state.savepoints == 0, state.ends.count >= configuration.transactionStreamMemory
        else { return }
        try writeStreamEnds()
    }

    // MARK: - Append

    /// Appends one stream's events inside the open write transaction. See `SQLiteEventStore` for
    /// the idempotency rules this implements.
    /// `eventsAreNew`: the caller found no event's id stored and none repeated in the request,
    /// so the append looks none up.
    /// `now`: the store's time for events without `recordedAt`, when the caller read the clock.
    func append(_ request: StreamAppend, eventsAreNew: Bool = false, now: Timestamp? = nil)
        throws(EventStoreError) -> AppendResult
    {
        guard write != nil else { preconditionFailure("append outside a write transaction") }
        let stream = request.stream
        try EventRules.validate(request.events, stream: stream, maxPayloadBytes: configuration.maxPayloadBytes)
        var streamID = try streamIDCreatingNew(stream, expected: request.expectedVersion, events: request.events.count)
        let current: Int64? = try streamID.map { id throws(EventStoreError) in try lastVersion(streamID: id) } ?? nil

        if !Self.satisfies(request.expectedVersion, current) {
            if !eventsAreNew, !request.events.isEmpty,
                let positions = try duplicatePositions(request.events, stream: stream)
            {
                return AppendResult(stream: stream, positions: positions, lastVersion: current, written: 0)
            }
            throw .conflict(stream: stream, expected: request.expectedVersion, actual: current)
        }

        var positions: [Int64] = []
        positions.reserveCapacity(request.events.count)
        var version = current
        var written = 0
        var lastPosition: Int64 = 0
        let now = now ?? configuration.clock()
        for event in request.events {
            let key = EventIDKey(event.id)
            if !eventsAreNew, let stored = try positionInWrite(of: key, id: event.id) {
                // An idempotent duplicate (or, with other content, a conflict that throws; the
                // savepoint or transaction rollback then removes what this append wrote).
                positions.append(try duplicatePosition(try self.event(at: stored, id: event.id), event, stream: stream))
                continue
            }
            if streamID == nil { streamID = try createStream(stream) }
            guard let sid = streamID, let previousHash = write?.headHash, let headPosition = write?.headPosition else {
                preconditionFailure("append outside a write transaction")
            }
            let position = headPosition + 1
            let nextVersion = (version ?? -1) + 1
            let recordedAt = event.recordedAt ?? now
            let typeID = try internType(event.type)
            let hash = event.data.withUnsafeBytes { data in
                OptionalBytes.with(event.meta) { meta in
                    hasher.hash(
                        previous: previousHash, position: position, version: nextVersion,
                        stream: stream.rawValue, id: event.id, type: event.type,
                        occurredAt: event.occurredAt, recordedAt: recordedAt, data: data, meta: meta)
                }
            }
            do {
                try insert(
                    event, key: key, position: position, streamID: sid, version: nextVersion, typeID: typeID,
                    recordedAt: recordedAt, hash: hash, dictionaryID: write?.dictionaryID)
            } catch {
                if sql.isAutocommit { rollbackWrite() }
                throw EventStoreError(sqlite: error, doing: "appending to \(stream)", stream: stream.rawValue)
            }
            addID(key, position: position)
            hasher.appendLeafHash(
                of: event, stream: stream, position: position, version: nextVersion,
                recordedAt: recordedAt, hash: hash, to: &write!.leafHashes)
            write?.headPosition = position
            write?.headHash = hash
            write?.written += 1
            version = nextVersion
            written += 1
            lastPosition = position
            positions.append(position)
            try trainDictionaryIfDue()
        }
        if let streamID { write?.setVersion(version, of: streamID) }
        if written > 0, let streamID, let version {
            write?.setEnd(StreamEnd(version: version, position: lastPosition), of: streamID)
        }
        return AppendResult(stream: stream, positions: positions, lastVersion: version, written: written)
    }

    static func satisfies(_ expected: ExpectedVersion, _ current: Int64?) -> Bool {
        switch expected {
        case .any: return true
        case .noStream: return current == nil
        case .streamExists: return current != nil
        case let .exact(version): return current == version
        }
    }

    /// The original positions when every event is an idempotent duplicate; nil when one is new.
    /// Throws when an id is stored with other content.
    func duplicatePositions(_ events: [ProposedEvent], stream: StreamName) throws(EventStoreError) -> [Int64]? {
        var positions: [Int64] = []
        var allStored = true
        for event in events {
            guard let stored = try storedEvent(id: event.id) else {
                allStored = false
                continue
            }
            positions.append(try duplicatePosition(stored, event, stream: stream))
        }
        return allStored ? positions : nil
    }

    private func duplicatePosition(_ stored: RecordedEvent, _ event: ProposedEvent, stream: StreamName)
        throws(EventStoreError) -> Int64
    {
        guard stored.stream == stream, configuration.isSameContent(stored, event) else {
            throw .duplicateID(event.id, stream: stream, storedStream: stored.stream, position: stored.position)
        }
        return stored.position
    }

    /// The stream's id. An append that expects no stream (the first append of every journey)
    /// and misses the caches creates the stream in the same statement that finds it absent,
    /// instead of a lookup and then an insert: one descent of the random name index instead of
    /// two. Whatever the append does next, it either writes an event to the new stream or throws
    /// (the savepoint or the transaction then takes the row back): an all-duplicates retry finds
    /// its stream existing, since its events are in it.
    func streamIDCreatingNew(_ stream: StreamName, expected: ExpectedVersion, events: Int)
        throws(EventStoreError) -> Int64?
    {
        // A journal being loaded has no name index to insert against: `createStream` does it.
        // Every stream it has went through `createStream`, into `newJournalStreams`: a name
        // without a candidate there is new, with no lookup in the caches.
        if newJournalStreams != nil, case .noStream = expected, newJournalStreams?.candidate(for: stream) == nil {
            return nil
        }
        guard newJournalStreams == nil, case .noStream = expected, events > 0, streamIDs[stream] == nil,
            write?.newStreams[stream] == nil
        else { return try streamID(of: stream) }
        let created: Int64? = try run("creating stream \(stream)", stream: stream) { () throws(SQLiteError) in
            let statement = try statement(.insertStreamIfAbsent)
            statement.bind(stream.rawValue, at: 1)
            try statement.run()
            return sql.changes == 1 ? sql.lastInsertRowID : nil
        }
        guard let created else { return try streamID(of: stream) }
        write?.addStream(stream, id: created)
        write?.setVersion(nil, of: created)
        return created
    }

    func createStream(_ stream: StreamName) throws(EventStoreError) -> Int64 {
        let id: Int64 = try run("creating stream \(stream)", stream: stream) { () throws(SQLiteError) in
            let statement = try statement(.insertStream)
            statement.bind(stream.rawValue, at: 1)
            try statement.run()
            return sql.lastInsertRowID
        }
        write?.addStream(stream, id: id)
        write?.setVersion(nil, of: id)
        newJournalStreams?.add(stream, id: id)
        return id
    }

    func internType(_ type: String) throws(EventStoreError) -> Int64 {
        if let id = typeIDs[type] ?? write?.newTypes[type] { return id }
        let found: Int64? = try run("looking up event type") { () throws(SQLiteError) in
            let statement = try statement(.typeByName)
            statement.bind(type, at: 1)
            defer { statement.reset() }
            return try statement.step() ? statement.int64(at: 0) : nil
        }
        if let found {
            typeIDs[type] = found
            typeNames[found] = type
            return found
        }
        let id: Int64 = try run("storing event type") { () throws(SQLiteError) in
            let statement = try statement(.insertType)
            statement.bind(type, at: 1)
            try statement.run()
            return sql.lastInsertRowID
        }
        write?.addType(type, id: id)
        return id
    }

    private func insert(
        _ event: ProposedEvent, key: EventIDKey, position: Int64, streamID: Int64, version: Int64, typeID: Int64,
        recordedAt: Timestamp, hash: [UInt8], dictionaryID: Int64?
    ) throws(SQLiteError) {
        payloadScratch.removeAll(keepingCapacity: true)
        payloadScratch.append(contentsOf: event.data)
        if let meta = event.meta { payloadScratch.append(contentsOf: meta) }
        let row = EventRow(
            position: position, streamID: streamID, version: version, key: key, typeID: typeID,
            occurredAt: event.occurredAt.millisecondsSinceEpoch, recordedAt: recordedAt.millisecondsSinceEpoch,
            dataCount: event.data.count, metaCount: event.meta?.count)
        try payloadScratch.withBytes { raw throws(SQLiteError) in
            try hash.withBytes { hash throws(SQLiteError) in
                try insert(row, raw: raw, dictionaryID: dictionaryID, hash: hash)
            }
        }
    }

    /// The columns of an event row beside its stored payload and its hash.
    struct EventRow {
        var position: Int64
        var streamID: Int64
        var version: Int64
        var key: EventIDKey
        var typeID: Int64
        var occurredAt: Int64
        var recordedAt: Int64
        var dataCount: Int
        var metaCount: Int?
    }

    /// Writes an event row whose payload is `raw` (data ‖ meta): compressed with dictionary
    /// `dictionaryID` when that saves a byte (`StoredPayload.compress`), else raw.
    func insert(_ row: EventRow, raw: UnsafeRawBufferPointer, dictionaryID: Int64?, hash: UnsafeRawBufferPointer)
        throws(SQLiteError)
    {
        guard let dictionaryID, let dictionary = try? dictionary(dictionaryID),
            let size = StoredPayload.compress(raw, with: dictionary, scratch: &compressScratch)
        else {
            return try insert(row, codec: 0, payload: raw, hash: hash)
        }
        try compressScratch.withBytes { bytes throws(SQLiteError) in
            try insert(row, codec: dictionaryID, payload: UnsafeRawBufferPointer(rebasing: bytes[..<size]), hash: hash)
        }
    }

    /// Writes an event row with its payload as stored. The payload and the hash are bound
    /// without a copy: their bytes are not touched until the statement has run, and the bindings
    /// are cleared before this returns.
    func insert(_ row: EventRow, codec: Int64, payload: UnsafeRawBufferPointer, hash: UnsafeRawBufferPointer)
        throws(SQLiteError)
    {
        let statement = try statement(.insertEvent)
        bind(row, codec: codec, payload: payload, hash: hash, to: statement, after: 0)
        defer {
            statement.bindNull(at: 11)
            statement.bindNull(at: 12)
        }
        try statement.run()
    }

    /// Binds an event row's twelve columns to parameters `first + 1 ... first + 12`; the payload
    /// and the hash without a copy.
    func bind(
        _ row: EventRow, codec: Int64, payload: UnsafeRawBufferPointer, hash: UnsafeRawBufferPointer,
        to statement: SQLiteStatement, after first: Int32
    ) {
        statement.bind(row.position, at: first + 1)
        statement.bind(row.streamID, at: first + 2)
        statement.bind(row.version, at: first + 3)
        bindEventID(row.key, to: statement, at: first + 4)
        statement.bind(row.typeID, at: first + 5)
        statement.bind(row.occurredAt, at: first + 6)
        statement.bind(row.recordedAt, at: first + 7)
        statement.bind(codec, at: first + 8)
        statement.bind(Int64(row.dataCount), at: first + 9)
        statement.bind(row.metaCount.map { Int64($0) }, at: first + 10)
        statement.bind(noCopyBlob: payload, at: first + 11)
        statement.bind(noCopyBlob: hash, at: first + 12)
    }

    // MARK: - Dictionary

    /// Builds and stores dictionary 1 from events 1…n once the journal has n events (n =
    /// `dictionaryTrainingEvents`), inside the write transaction that reaches n. Deterministic:
    /// the same first n events always give the same dictionary.
    func trainDictionaryIfDue() throws(EventStoreError) {
        let threshold = configuration.dictionaryTrainingEvents
        guard threshold > 0, !dictionaryTrainingSkipped, write != nil, write?.dictionaryID == nil,
            write?.headPosition ?? 0 >= threshold
        else { return }
        var samples: [(type: Int64, payload: [UInt8])] = []
        try run("reading events to train the compression dictionary") { () throws(SQLiteError) in
            let statement = try sql.cached(
                """
                SELECT type_id, payload FROM journal_events WHERE position <= ? AND codec = 0 ORDER BY position
                """)
            statement.bind(threshold, at: 1)
            defer { statement.reset() }
            while try statement.step() {
                samples.append((statement.int64(at: 0), statement.blob(at: 1)))
            }
        }
        let content = LZ4Dictionary.train(samples: samples, maxSize: configuration.dictionarySize)
        guard !content.isEmpty else {
            dictionaryTrainingSkipped = true
            return
        }
        try storeDictionary(content, trainedThrough: threshold)
    }

    /// Stores a trained dictionary as the next version, which the open transaction's new events
    /// use from now on; returns its id.
    @discardableResult
    func storeDictionary(_ content: [UInt8], trainedThrough position: Int64) throws(EventStoreError) -> Int64 {
        let checksum = hasher.digest(content)
        let id: Int64 = try run("storing a compression dictionary") { () throws(SQLiteError) in
            let statement = try sql.cached(
                """
                INSERT INTO journal_dictionaries(codec, content, sha256, trained_through) VALUES ('lz4', ?, ?, ?)
                """)
            statement.bind(blob: content, at: 1)
            statement.bind(blob: checksum, at: 2)
            statement.bind(position, at: 3)
            try statement.run()
            return sql.lastInsertRowID
        }
        dictionaries[id] = LZ4Dictionary(id: id, content: content)
        write?.dictionaryID = id
        write?.trainedDictionary = true
        return id
    }
}
