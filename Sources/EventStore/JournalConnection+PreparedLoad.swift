import JournalCore

extension JournalConnection {
    /// Appends a prepared batch of a journal load in one transaction, all or nothing; returns
    /// the events written. The same checks and rows as `append(_ request:)` for each of its
    /// appends, in order (a load has no ids to find: `finish()` checks them), without the work
    /// the preparer did: the rules, the id, the link body, the compression. An append the
    /// preparer left to the writer goes through `append(_ request:)`.
    func appendPrepared(_ batch: PreparedLoadBatch) throws(EventStoreError) -> Int {
        precondition(newJournalStreams != nil, "a prepared batch is for a journal load")
        guard let published = publishedDictionary, batch.origin == ObjectIdentifier(published) else {
            throw EventStoreError(code: .invalidInput,
                                  message: "\(path): this batch was prepared for another journal load (use this load's makePreparer())")
        }
        try beginWrite()
        // The batch's ids come sorted from the preparer: none are gathered one by one.
        loadIDs?.suspended = true
        defer { loadIDs?.suspended = false }
        do throws(EventStoreError) {
            guard let start = write?.headPosition else { preconditionFailure("a write transaction without a head") }
            var typeIDs = [Int64?](repeating: nil, count: batch.typeNames.count)
            // The preparer's hashes hold when it assumed this very head (see `writeEvents`).
            var ahead = batch.assumedStart.map { $0.position == start && $0.hash == write?.headHash } ?? false
            var written = 0
            for index in batch.appends.indices {
                switch batch.appends[index].form {
                case let .prepared(first):
                    written += try appendPrepared(batch, index: index, first: first, typeIDs: &typeIDs, ahead: &ahead)
                case let .usual(request):
                    written += try append(request).written
                case let .refused(error):
                    throw error
                }
                spillStreamBookkeepingIfDue()
            }
            let trained = write?.trainedDictionary == true ? write?.dictionaryID : nil
            try commitWrite()
            // Written whole and in order: event i of the batch is at start + 1 + i.
            loadIDs?.addSortedRun(batch.ids, positionBase: start + 1, packed: batch.idsPacked && written == batch.eventCount)
            if let trained, let dictionary = dictionaries[trained] {
                publishedDictionary?.publish(id: trained, content: dictionary.content)
            }
            return written
        } catch {
            if write != nil { rollbackWrite() }
            throw error
        }
    }

    private func appendPrepared(_ batch: PreparedLoadBatch, index: Int, first: Int, typeIDs: inout [Int64?],
                                ahead: inout Bool)
        throws(EventStoreError) -> Int {
        let request = batch.appends[index]
        let stream = request.stream
        var streamID = try streamIDCreatingNew(stream, expected: request.expectedVersion, events: request.count)
        let current: Int64? = try streamID.map { id throws(EventStoreError) in try lastVersion(streamID: id) } ?? nil
        // A load finds no stored ids (`finish()` checks them), so a stale version is a conflict,
        // never an idempotent retry, on the usual path too.
        if !Self.satisfies(request.expectedVersion, current) {
            throw .conflict(stream: stream, expected: request.expectedVersion, actual: current)
        }
        guard request.count > 0 else {
            if let streamID { write?.setVersion(current, of: streamID) }
            return 0
        }
        if streamID == nil { streamID = try createStream(stream) }
        guard let sid = streamID, var position = write?.headPosition else {
            preconditionFailure("append outside a write transaction")
        }
        var version = current ?? -1
        // The chain so far in the first half of `chainHash`, each new hash in the second.
        guard let head = write?.headHash, head.count == 32 else { preconditionFailure("a write transaction without a head hash") }
        chainHash.withUnsafeMutableBytes { chain in head.withUnsafeBytes { chain.copyMemory(from: $0) } }
        // `withUnsafeBytes` rethrows untyped errors: the loop hands its error out instead.
        let failure: EventStoreError? = batch.bytes.withUnsafeBytes { bytes in
            do throws(EventStoreError) {
                try writeEvents(of: batch, from: first, count: request.count, bytes: bytes, stream: stream,
                                streamID: sid, position: &position, version: &version, typeIDs: &typeIDs, ahead: &ahead)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        chainHash.withUnsafeBytes { chain in
            write?.headHash.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: chain[..<32])) }
        }
        write?.setVersion(version, of: sid)
        return request.count
    }

    /// Writes events `first ..< first + count` of `batch` (one append's), after `position` and
    /// `version`, which it moves on.
    private func writeEvents(of batch: PreparedLoadBatch, from first: Int, count: Int, bytes: UnsafeRawBufferPointer,
                             stream: StreamName, streamID sid: Int64, position: inout Int64, version: inout Int64,
                             typeIDs: inout [Int64?], ahead: inout Bool) throws(EventStoreError) {
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
            let prepared = event.hashOffset < 0 ? nil : UnsafeRawBufferPointer(rebasing: bytes[event.hashOffset..<(event.hashOffset + 32)])
            chainHash.withUnsafeMutableBytes { chain in
                let next = UnsafeMutableRawBufferPointer(rebasing: chain[32..<64])
                if ahead, let prepared, event.assumedVersion == version {
                    next.copyMemory(from: prepared)
                    hashesTakenAhead += 1
                } else {
                    hasher.hash(previous: UnsafeRawBufferPointer(rebasing: chain[..<32]), position: position,
                                version: version, body: UnsafeRawBufferPointer(rebasing: bytes[event.body]), into: next)
                    ahead = false
                }
            }
            do throws(SQLiteError) {
                try insertPrepared(event, bytes: bytes, position: position,
                                   streamID: sid, version: version, typeID: typeID)
            } catch {
                if sql.isAutocommit { rollbackWrite() }
                throw EventStoreError(sqlite: error, doing: "appending to \(stream)", stream: stream.rawValue)
            }
            chainHash.withUnsafeMutableBytes { chain in
                chain.baseAddress!.copyMemory(from: chain.baseAddress! + 32, byteCount: 32)
            }
            loadIDs?.add(event.key, position: position)
            write?.headPosition = position
            write?.written += 1
            try trainDictionaryIfDue()
        }
    }

    /// The event's data and meta as one payload: the body's data in place when there is no meta,
    /// else both copied into `payloadScratch`.
    private func withRawPayload(of event: PreparedLoadEvent, in bytes: UnsafeRawBufferPointer,
                                _ body: (UnsafeRawBufferPointer) -> Void) {
        let data = UnsafeRawBufferPointer(rebasing: bytes[event.dataOffset..<(event.dataOffset + event.dataCount)])
        guard let metaOffset = event.metaOffset, let metaCount = event.metaCount else { return body(data) }
        payloadScratch.removeAll(keepingCapacity: true)
        payloadScratch.append(contentsOf: data)
        payloadScratch.append(contentsOf: bytes[metaOffset..<(metaOffset + metaCount)])
        payloadScratch.withUnsafeBytes(body)
    }

    /// Binds and writes one prepared row; the hash is the second half of `chainHash`.
    private func insertPrepared(_ event: PreparedLoadEvent, bytes: UnsafeRawBufferPointer,
                                position: Int64, streamID: Int64, version: Int64, typeID: Int64) throws(SQLiteError) {
        let statement = try statement(.insertEvent)
        statement.bind(position, at: 1)
        statement.bind(streamID, at: 2)
        statement.bind(version, at: 3)
        bindEventID(event.key, to: statement, at: 4)
        statement.bind(typeID, at: 5)
        statement.bind(event.occurredAt, at: 6)
        statement.bind(event.recordedAt, at: 7)
        statement.bind(Int64(event.dataCount), at: 9)
        statement.bind(event.metaCount.map { Int64($0) }, at: 10)
        let dictionaryID = write?.dictionaryID
        var failure: SQLiteError?
        func run(codec: Int64, payload: UnsafeRawBufferPointer) {
            statement.bind(codec, at: 8)
            statement.bind(noCopyBlob: payload, at: 11)
            chainHash.withUnsafeBytes { chain in
                statement.bind(noCopyBlob: UnsafeRawBufferPointer(rebasing: chain[32..<64]), at: 12)
                do { try statement.run() } catch {
                    failure = (error as? SQLiteError) ?? SQLiteError(extendedCode: 1, operation: "step", message: "\(error)")
                }
            }
            statement.bindNull(at: 11)
            statement.bindNull(at: 12)
        }
        if event.codec != 0, event.codec == dictionaryID {
            run(codec: event.codec, payload: UnsafeRawBufferPointer(rebasing: bytes[event.compressed]))
        } else if event.preparedWith != 0, event.preparedWith == dictionaryID {
            // The preparer found that compressing would not save a byte: raw.
            withRawPayload(of: event, in: bytes) { run(codec: 0, payload: $0) }
        } else {
            // Prepared before the writer had its dictionary: the usual rule, here.
            let found = dictionaryID.flatMap { try? dictionary($0) }
            withRawPayload(of: event, in: bytes) { raw in
                if let found, let size = StoredPayload.compress(raw, with: found, scratch: &compressScratch) {
                    compressScratch.withUnsafeBytes { run(codec: found.id, payload: UnsafeRawBufferPointer(rebasing: $0[..<size])) }
                } else {
                    run(codec: 0, payload: raw)
                }
            }
        }
        if let failure { throw failure }
    }
}
