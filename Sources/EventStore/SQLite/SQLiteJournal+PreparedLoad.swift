import JournalCore

extension SQLiteJournal {
    /// Appends a prepared batch of a journal load in one transaction, all or nothing; returns
    /// the events written. The same checks and rows as `append(_ request:)` for each of its
    /// appends, in order (a load has no ids to find: `finish()` checks them), without the work
    /// the preparer did: the rules, the id, the link body, the compression. An append the
    /// preparer left to the writer goes through `append(_ request:)`.
    func appendPrepared(_ batch: PreparedLoadBatch) throws(EventStoreError) -> Int {
        precondition(newJournalStreams != nil, "a prepared batch is for a journal load")
        guard let published = publishedDictionary, batch.origin == ObjectIdentifier(published) else {
            throw EventStoreError(
                code: .invalidInput,
                message: "\(path): this batch was prepared for another journal load (use this load's makePreparer())")
        }
        try beginWrite()
        // The batch's ids come whole from the preparer: none are gathered one by one.
        loadIDs?.suspended = true
        defer { loadIDs?.suspended = false }
        do throws(EventStoreError) {
            guard let start = write?.headPosition else { preconditionFailure("a write transaction without a head") }
            var typeIDs = [Int64?](repeating: nil, count: batch.typeNames.count)
            // The preparer's hashes hold when it assumed this very head (see `writeEvents`).
            var ahead = batch.assumedStart.map { $0.position == start && $0.hash == write?.headHash } ?? false
            // The leaf hashes of the events hashed ahead, made on another thread meanwhile.
            var leaves = PendingLeaves(making: ahead ? batch : nil)
            defer { leaves.finish() }
            var written = 0
            // Rows wait in `pendingRows` with pointers into the batch's bytes: all are written
            // before those bytes are let go, and before anything else writes a row.
            try batch.bytes.withBytes { bytes throws(EventStoreError) in
                for index in batch.appends.indices {
                    switch batch.appends[index].form {
                    case let .prepared(first):
                        written += try appendPrepared(
                            batch, index: index, first: first, bytes: bytes, typeIDs: &typeIDs,
                            ahead: &ahead, leaves: &leaves
                        ).written
                    case let .usual(request):
                        try run("appending a batch to \(path)") { () throws(SQLiteError) in try writePendingRows() }
                        written += try append(request).written
                    case let .refused(error):
                        throw error
                    }
                    try writeStreamEndsIfDue()
                    spillStreamBookkeepingIfDue()
                }
                try run("appending a batch to \(path)") { () throws(SQLiteError) in try writePendingRows() }
                // Only the commit moves leaf hashes into the tree (`flushTree`): all are in place first.
                fill(&leaves)
            }
            let trained = write?.trainedDictionary == true ? write?.dictionaryID : nil
            try commitWrite()
            // Written whole and in order: event i of the batch is at start + 1 + i.
            loadIDs?.addCommitted(
                batch.ids, positionBase: start + 1, packed: batch.idsPacked && written == batch.eventCount)
            if let trained, let dictionary = dictionaries[trained] {
                publishedDictionary?.publish(id: trained, content: dictionary.content)
            }
            return written
        } catch {
            pendingRows.removeAll()
            if write != nil { rollbackWrite() }
            throw error
        }
    }

    /// Append `index` of `batch`, whose events start at `first`: the events written and the
    /// stream's last version after it.
    func appendPrepared(
        _ batch: PreparedLoadBatch, index: Int, first: Int, bytes: UnsafeRawBufferPointer,
        typeIDs: inout [Int64?], ahead: inout Bool, leaves: inout PendingLeaves
    )
        throws(EventStoreError) -> (written: Int, lastVersion: Int64?)
    {
        // Field by field: copying the whole append (its form's payload too) would cost the writer
        // a copy per append (BENCHMARKS.md, "Load path").
        let stream = batch.appends[index].stream
        let expected = batch.appends[index].expectedVersion
        let count = batch.appends[index].count
        var streamID = try streamIDCreatingNew(stream, expected: expected, events: count)
        let current: Int64? = try streamID.map { id throws(EventStoreError) in try lastVersion(streamID: id) } ?? nil
        // A load finds no stored ids (`finish()` checks them), so a stale version is a conflict,
        // never an idempotent retry, on the usual path too.
        if !Self.satisfies(expected, current) {
            throw .conflict(stream: stream, expected: expected, actual: current)
        }
        guard count > 0 else {
            if let streamID { write?.setVersion(current, of: streamID) }
            return (0, current)
        }
        if streamID == nil { streamID = try createStream(stream) }
        guard let sid = streamID, var position = write?.headPosition else {
            preconditionFailure("append outside a write transaction")
        }
        var version = current ?? -1
        // The chain so far in the first half of `chainHash`, each new hash in the second.
        guard let head = write?.headHash, head.count == 32 else {
            preconditionFailure("a write transaction without a head hash")
        }
        chainHash.withUnsafeMutableBytes { chain in head.withUnsafeBytes { chain.copyMemory(from: $0) } }
        try writeEvents(
            of: batch, from: first, count: count, bytes: bytes, stream: stream,
            streamID: sid, position: &position, version: &version, typeIDs: &typeIDs, ahead: &ahead,
            leaves: &leaves)
        chainHash.withUnsafeBytes { chain in
            write?.headHash.withUnsafeMutableBytes {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: chain[..<32]))
            }
        }
        write?.setVersion(version, of: sid)
        write?.setEnd(StreamEnd(version: version, position: position), of: sid)
        return (count, version)
    }

    /// Writes events `first ..< first + count` of `batch` (one append's), after `position` and
    /// `version`, which it moves on.
    private func writeEvents(
        of batch: PreparedLoadBatch, from first: Int, count: Int, bytes: UnsafeRawBufferPointer,
        stream: StreamName, streamID sid: Int64, position: inout Int64, version: inout Int64,
        typeIDs: inout [Int64?], ahead: inout Bool, leaves: inout PendingLeaves
    ) throws(EventStoreError) {
        for offset in 0..<count {
            let event = batch.events[first + offset]
            position += 1
            version += 1
            let typeID: Int64
            if let known = typeIDs[event.type] {
                typeID = known
            } else {
                typeID = try internType(batch.typeNames[event.type])
                typeIDs[event.type] = typeID
            }
            // A hash computed ahead is this event's when everything before it was as the
            // preparer assumed (`ahead`: the batch's start, and each event so far, which keeps
            // the positions in step) and so is its version: same inputs, same hash. Otherwise it
            // is computed here, and no hash computed ahead is used for the rest of the batch.
            // The leaf hash of an event hashed ahead is being made on another thread: its place
            // is kept (`leaves`) and filled before the tree takes it.
            let leafStart = write!.leafHashes.count
            write!.leafHashes.append(contentsOf: ChainHasher.zeroHash)
            chainHash.withUnsafeMutableBytes { chain in
                let next = UnsafeMutableRawBufferPointer(rebasing: chain[32..<64])
                if ahead, event.hashOffset >= 0, event.assumedVersion == version {
                    next.copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: bytes[event.hashOffset..<(event.hashOffset + 32)]))
                    leaves.fills.append((slot: leafStart, event: first + offset))
                    hashesTakenAhead += 1
                } else {
                    let body = UnsafeRawBufferPointer(rebasing: bytes[event.body])
                    hasher.hash(
                        previous: UnsafeRawBufferPointer(rebasing: chain[..<32]), position: position,
                        version: version, body: body, into: next)
                    write!.leafHashes.withUnsafeMutableBytes { all in
                        hasher.leafHash(
                            body: body, position: position, version: version, hash: UnsafeRawBufferPointer(next),
                            into: UnsafeMutableRawBufferPointer(rebasing: all[leafStart..<(leafStart + 32)]))
                    }
                    ahead = false
                }
            }
            do throws(SQLiteError) {
                try insertPrepared(
                    event, bytes: bytes, position: position,
                    streamID: sid, version: version, typeID: typeID)
            } catch {
                if sql.isAutocommit { rollbackWrite() }
                throw EventStoreError(sqlite: error, doing: "appending to \(stream)", stream: stream.rawValue)
            }
            chainHash.withUnsafeMutableBytes { chain in
                chain.baseAddress!.copyMemory(from: chain.baseAddress! + 32, byteCount: 32)
            }
            write?.headPosition = position
            write?.written += 1
            try trainDictionaryIfDue()
        }
    }

    /// The event's data and meta as one payload: the body's data in place when there is no meta,
    /// else both copied into `payloadScratch`.
    private func withRawPayload<R>(
        of event: PreparedLoadEvent, in bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        let data = UnsafeRawBufferPointer(rebasing: bytes[event.data])
        guard let meta = event.meta else { return try body(data) }
        payloadScratch.removeAll(keepingCapacity: true)
        payloadScratch.append(contentsOf: data)
        payloadScratch.append(contentsOf: bytes[meta])
        return try payloadScratch.withBytes(body)
    }

    /// Writes one prepared row, or leaves it in `pendingRows` when its stored payload is in the
    /// batch's bytes as it is (compressed with the writer's dictionary by the preparer, or raw
    /// data without meta that the preparer found would not compress); its hash is the second
    /// half of `chainHash`.
    private func insertPrepared(
        _ event: PreparedLoadEvent, bytes: UnsafeRawBufferPointer,
        position: Int64, streamID: Int64, version: Int64, typeID: Int64
    ) throws(SQLiteError) {
        let row = EventRow(
            position: position, streamID: streamID, version: version, key: event.key, typeID: typeID,
            occurredAt: event.occurredAt, recordedAt: event.recordedAt,
            dataCount: event.data.count, metaCount: event.meta?.count)
        let dictionaryID = write?.dictionaryID
        let stored: (codec: Int64, payload: Range<Int>)?
        if event.codec != 0, event.codec == dictionaryID {
            stored = (event.codec, event.compressed)
        } else if event.preparedWith != 0, event.preparedWith == dictionaryID, event.meta == nil {
            stored = (0, event.data)
        } else {
            stored = nil
        }
        try chainHash.withBytes { chain throws(SQLiteError) in
            let hash = UnsafeRawBufferPointer(rebasing: chain[32..<64])
            if let stored {
                pendingRows.add(
                    row, codec: stored.codec, payload: UnsafeRawBufferPointer(rebasing: bytes[stored.payload]),
                    hash: hash)
                if pendingRows.isFull { try writePendingRows() }
                return
            }
            try writePendingRows()
            // The rest: prepared before the writer had its dictionary (the usual rule, here), or
            // left raw with meta (data and meta copied together into one payload).
            let compressWith = event.preparedWith != 0 && event.preparedWith == dictionaryID ? nil : dictionaryID
            try withRawPayload(of: event, in: bytes) { raw throws(SQLiteError) in
                try insert(row, raw: raw, dictionaryID: compressWith, hash: hash)
            }
        }
    }

    /// Writes the rows waiting in `pendingRows`, in order: `PendingEventRows.width` in one
    /// statement, fewer one by one.
    func writePendingRows() throws(SQLiteError) {
        let rows = pendingRows.rows
        guard !rows.isEmpty else { return }
        defer { pendingRows.removeAll() }
        try MultiRowInsert.run(
            count: rows.count, width: PendingEventRows.width, columns: 12,
            many: { () throws(SQLiteError) in try statement(.insertEventRows) },
            one: { () throws(SQLiteError) in try statement(.insertEvent) },
            bind: { statement, index, at in
                bind(
                    rows[index].row, codec: rows[index].codec, payload: rows[index].payload,
                    hash: pendingRows.hash(index), to: statement, after: at)
            })
    }

    /// Puts the leaf hashes made on the other thread in the places kept for them.
    func fill(_ leaves: inout PendingLeaves) {
        guard !leaves.fills.isEmpty else { return }
        guard let made = leaves.made() else {
            // Places are kept only for the events of a batch whose hashes are being made.
            preconditionFailure("leaf hashes awaited from a batch whose hashes are not being made")
        }
        write!.leafHashes.withUnsafeMutableBytes { all in
            made.hashes.withUnsafeBytes { hashes in
                for fill in leaves.fills {
                    UnsafeMutableRawBufferPointer(rebasing: all[fill.slot..<(fill.slot + 32)]).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: hashes[(32 * fill.event)..<(32 * fill.event + 32)]))
                }
            }
        }
        leaves.fills.removeAll()
    }
}
