import JournalCore

extension SQLiteJournal {
    /// A request of at least this many events has its preparation made on another thread
    /// (`appendPreparing`); below it, starting the thread costs more than it frees.
    static var preparedAppendEvents: Int { 256 }

    /// The events of a request of many appends in chunks of at most this many (the first ones
    /// smaller, so that the writer waits less for the first).
    static var preparedChunkEvents: Int { 1_024 }

    /// Whether `appendPreparing` takes `parts`: a journal file (a load prepares its own batches)
    /// and enough events to pay for the thread.
    func preparesAhead(_ parts: [StreamAppend]) -> Bool {
        guard parts.count > 1, newJournalStreams == nil, !configuration.buildsNewJournal else { return false }
        var events = 0
        for part in parts {
            events += part.events.count
            if events >= Self.preparedAppendEvents { return true }
        }
        return false
    }

    /// Appends `parts` in order inside the open write transaction, as `append(_ request:)` one
    /// after the other would, with each event's preparation (the rules, its id packed, its link
    /// body, its payload compressed with the writer's dictionary) made on another thread, a chunk
    /// of appends ahead of the rows being written (`LoadPreparer`, the load's preparer). The
    /// writer keeps what depends on the transaction: streams, versions, the id lookups, the chain
    /// hashes (computed ahead by the preparer where it can know the versions, as in a load). An
    /// append the preparer refuses, or one with an event already stored or repeated, goes
    /// through the usual path, which gives its error or its idempotent result.
    func appendPreparing(_ parts: [StreamAppend]) throws(EventStoreError) -> [AppendResult] {
        guard let head = write.map({ (position: $0.headPosition, hash: $0.headHash) }) else {
            preconditionFailure("append outside a write transaction")
        }
        let published = PublishedDictionary()
        if let id = write?.dictionaryID, let dictionary = try? dictionary(id) {
            published.publish(id: id, content: dictionary.content)
        }
        // One reading of the clock per append, as the usual path reads it, in order.
        let times = parts.map { _ in configuration.clock() }
        let preparer = try LoadPreparer(
            maxPayloadBytes: configuration.maxPayloadBytes, published: published, head: head)
        let chunks = Self.chunks(of: parts)
        // The preparer is the running task's until it is waited for; the next starts after that.
        let shared = HandOver((preparer: preparer, parts: parts, times: times))
        func prepare(_ range: Range<Int>) -> BackgroundTask<PreparedLoadBatch> {
            BackgroundTask { shared.value.preparer.prepare(shared.value.parts[range], recordedAt: shared.value.times[range]) }
        }
        var next: BackgroundTask<PreparedLoadBatch>? = prepare(chunks[0])
        defer { next?.finish() }
        var results: [AppendResult] = []
        results.reserveCapacity(parts.count)
        var typeIDs: [Int64?] = []
        for (index, range) in chunks.enumerated() {
            guard let batch = next?.wait() else { preconditionFailure("a chunk without its preparation") }
            next = index + 1 < chunks.count ? prepare(chunks[index + 1]) : nil
            try writePrepared(batch, parts: parts[range], times: times[range], typeIDs: &typeIDs, into: &results)
        }
        return results
    }

    /// The appends' indexes in chunks of growing size, up to `preparedChunkEvents` events each.
    static func chunks(of parts: [StreamAppend]) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        var start = 0
        var events = 0
        var size = 64
        for (index, part) in parts.enumerated() {
            events += part.events.count
            if events >= size || index == parts.count - 1 {
                chunks.append(start..<(index + 1))
                start = index + 1
                events = 0
                size = min(size * 2, preparedChunkEvents)
            }
        }
        return chunks
    }

    /// Writes one prepared chunk of `appendPreparing`; `typeIDs` by the preparer's type index
    /// across chunks.
    private func writePrepared(
        _ batch: PreparedLoadBatch, parts: ArraySlice<StreamAppend>, times: ArraySlice<Timestamp>,
        typeIDs: inout [Int64?], into results: inout [AppendResult]
    ) throws(EventStoreError) {
        if typeIDs.count < batch.typeNames.count {
            typeIDs.append(contentsOf: repeatElement(nil, count: batch.typeNames.count - typeIDs.count))
        }
        guard let start = write?.headPosition else { preconditionFailure("append outside a write transaction") }
        // The preparer's hashes hold when it assumed this very head (see `writeEvents`).
        var ahead = batch.assumedStart.map { $0.position == start && $0.hash == write?.headHash } ?? false
        var leaves = PendingLeaves(making: ahead ? batch : nil)
        defer { leaves.finish() }
        do throws(EventStoreError) {
            // Rows wait in `pendingRows` with pointers into the batch's bytes: all are written
            // before those bytes are let go, and before anything else reads or writes a row.
            try batch.bytes.withBytes { bytes throws(EventStoreError) in
                for (index, part) in zip(batch.appends.indices, parts.indices) {
                    let request = parts[part]
                    if case let .prepared(first) = batch.appends[index].form,
                        try areNew(batch.events[first..<(first + batch.appends[index].count)], of: request)
                    {
                        let before = write?.headPosition ?? 0
                        let (written, version) = try appendPrepared(
                            batch, index: index, first: first, bytes: bytes, typeIDs: &typeIDs, ahead: &ahead,
                            leaves: &leaves)
                        eventsPreparedAhead += written
                        for offset in 0..<written {
                            addID(batch.events[first + offset].key, position: before + 1 + Int64(offset))
                        }
                        results.append(
                            AppendResult(
                                stream: request.stream,
                                positions: written == 0 ? [] : Array((before + 1)...(before + Int64(written))),
                                lastVersion: version, written: written))
                    } else {
                        try run("appending to \(path)") { () throws(SQLiteError) in try writePendingRows() }
                        // The usual path may write fewer events than the preparer assumed.
                        ahead = false
                        results.append(try append(request, now: times[part]))
                    }
                }
                try run("appending to \(path)") { () throws(SQLiteError) in try writePendingRows() }
                // Only the commit moves leaf hashes into the tree (`flushTree`): all are in place first.
                fill(&leaves)
            }
        } catch {
            pendingRows.removeAll()
            throw error
        }
    }

    /// Whether none of `events` (the prepared events of `request`) is stored, in the journal or
    /// this transaction, and no id appears twice among them: then the usual path would look
    /// none up (`append(_:eventsAreNew:)`).
    private func areNew(_ events: ArraySlice<PreparedLoadEvent>, of request: StreamAppend) throws(EventStoreError)
        -> Bool
    {
        if events.count > 1 && Set(events.lazy.map(\.key)).count != events.count { return false }
        for (event, proposed) in zip(events, request.events)
        where try positionInWrite(of: event.key, id: proposed.id) != nil {
            return false
        }
        return true
    }
}
