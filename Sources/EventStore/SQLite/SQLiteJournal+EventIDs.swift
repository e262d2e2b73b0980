import JournalCore

// Idempotency by event id with a batched id index (schema version 2, see
// `SQLiteEventStore+Schema.swift`). Where an id can be:
// - after the index's coverage: `recentIDs`, the writer's memory of the tail, caught up at every
//   `beginWrite` under the write lock (so other processes' appends are seen) and holding the
//   open transaction's own ids too (`WriteState.addedIDs` lists them for a rollback);
// - committed and covered: `journal_event_ids`.
// Readers, without that memory, ask SQLite in one statement (one snapshot): the index, then the
// tail it does not cover yet.

extension SQLiteJournal {
    /// Binds an event id as it is stored: 16 bytes for a lowercase canonical UUID, else its text.
    func bindEventID(_ id: String, to statement: SQLiteStatement, at index: Int32) {
        bindEventID(EventIDKey(id), to: statement, at: index)
    }

    /// The same, from the id's key (no second parse of the text).
    func bindEventID(_ key: EventIDKey, to statement: SQLiteStatement, at index: Int32) {
        switch key {
        case let .packed(high, low):
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2) { words in
                words[0] = high.bigEndian
                words[1] = low.bigEndian
                statement.bind(blob: UnsafeRawBufferPointer(words), at: index)
            }
        case let .text(id):
            statement.bind(id, at: index)
        }
    }

    /// Catches the writer's memory of the tail up with the committed log (the write lock held),
    /// and `recentIDs.through` with how far the id index covers it.
    func syncRecentIDs(head: Int64) throws(EventStoreError) {
        if configuration.buildsNewJournal { return }
        let through: Int64 = try run("reading the id index of \(path)") { () throws(SQLiteError) in
            let statement = try statement(.idIndexThrough)
            defer { statement.reset() }
            return try statement.step() ? statement.int64(at: 0) : 0
        }
        if through < recentIDs.through || head < recentIDs.loadedThrough {
            recentIDs.reset() // the file is not the one remembered (replaced or restored)
        }
        // With a filter of the index, the ids another writer copied into it since this memory
        // was loaded are read too, so that they join the filter instead of voiding it.
        let from = max(recentIDs.loadedThrough, recentIDs.indexFilter == nil ? through : recentIDs.through)
        if from < head { try loadTailIDs(after: from, through: head) }
        recentIDs.loaded(through: head)
        recentIDs.indexed(through: through)
    }

    private func loadTailIDs(after from: Int64, through head: Int64) throws(EventStoreError) {
        try run("loading the event ids of the log's tail") { () throws(SQLiteError) in
            let statement = try statement(.tailIDs)
            statement.bind(from, at: 1)
            statement.bind(head, at: 2)
            defer { statement.reset() }
            while try statement.step() {
                // A damaged id (not 16 bytes) matches nothing; `verify` reports it.
                if let key = EventIDKey(column: 1, of: statement) {
                    recentIDs.add(key, position: statement.int64(at: 0))
                }
            }
        }
    }

    /// The position of the event stored with this id, as the open write transaction sees it.
    func positionInWrite(of key: EventIDKey, id: String) throws(EventStoreError) -> Int64? {
        // Reads `write` through its optional: binding it would copy the whole state per event.
        guard write != nil else { preconditionFailure("positionInWrite outside a write transaction") }
        // A new journal under construction checks its ids once, when its index is built.
        if configuration.buildsNewJournal { return nil }
        if let position = recentIDs.position(of: key) { return position }
        guard recentIDs.through > 0, write?.absentFromIndex != key, recentIDs.indexMayContain(key) else { return nil }
        let position: Int64? = try run("looking up event \(id.prefix(60))") { () throws(SQLiteError) in
            let statement = try statement(.indexedID)
            bindEventID(key, to: statement, at: 1)
            defer { statement.reset() }
            return try statement.step() ? statement.int64(at: 0) : nil
        }
        if position == nil { self.write?.absentFromIndex = key }
        if recentIDs.indexFilter == nil {
            indexProbes += 1
            if recentIDs.indexFilterOutgrown
                || configuration.idIndex.buildsFilter(probes: indexProbes, indexed: recentIDs.through)
            {
                try buildIndexFilter()
            }
        }
        return position
    }

    /// Reads `journal_event_ids` (as this transaction sees it: everything up to
    /// `recentIDs.through`) into a filter with room for as many ids again.
    private func buildIndexFilter() throws(EventStoreError) {
        var filter = IndexedIDFilter(
            capacity: max(
                Int(clamping: recentIDs.through) * 2,
                configuration.idIndex.filterMinimumCapacity))
        try run("reading the id index of \(path) into a filter") { () throws(SQLiteError) in
            let statement = try sql.cached("SELECT id FROM journal_event_ids")
            defer { statement.reset() }
            while try statement.step() {
                // A damaged id (not 16 bytes) matches nothing, in the index or in the filter.
                if let key = EventIDKey(column: 0, of: statement) { filter.insert(key) }
            }
        }
        recentIDs.setIndexFilter(filter)
        indexProbes = 0
    }

    /// The event stored with this id (exactly as written), if any.
    func storedEvent(id: String) throws(EventStoreError) -> RecordedEvent? {
        guard write != nil else {
            if legacyIDIndex { return try legacyStoredEvent(id: id) }
            return try collect("looking up event \(id.prefix(60))", .eventByID, stream: nil) { statement in
                bindEventID(id, to: statement, at: 1)
            }.first
        }
        guard let position = try positionInWrite(of: EventIDKey(id), id: id) else { return nil }
        return try event(at: position, id: id)
    }

    /// A version 1 journal (read-only): its unique index on the id column.
    private func legacyStoredEvent(id: String) throws(EventStoreError) -> RecordedEvent? {
        let statement = try run("looking up event \(id.prefix(60))") { () throws(SQLiteError) in
            try sql.cached("SELECT \(Self.columns) FROM journal_events WHERE event_id = ?")
        }
        bindEventID(id, to: statement, at: 1)
        defer { statement.reset() }
        guard try run("looking up event \(id.prefix(60))", { () throws(SQLiteError) in try statement.step() }) else {
            return nil
        }
        return try decodeRow(statement, stream: nil)
    }

    /// The event at `position`, which the id index says has this id.
    func event(at position: Int64, id: String) throws(EventStoreError) -> RecordedEvent {
        guard let event = try readAll(from: position, limit: 1).first, event.position == position, event.id == id else {
            throw .integrity(at: position, "the event id index points at an event with another id")
        }
        return event
    }

    /// Copies the tail's ids into `journal_event_ids`, in id order, when the policy says the tail
    /// is long enough. Only outside savepoints, so that no partial rollback can undo a copy the
    /// write state already counts. A failure rolls the whole transaction back.
    func copyIDsIfDue() throws(EventStoreError) {
        guard let state = write, state.savepoints == 0, !configuration.buildsNewJournal else { return }
        // Inside a write transaction `recentIDs.through` is how far the index covers the log,
        // this transaction's copies included.
        let through = recentIDs.through
        let tail = state.headPosition - through
        guard tail > 0, tail >= configuration.idIndex.threshold(indexed: through) else { return }
        do {
            try run("copying event ids into the id index of \(path)") { () throws(SQLiteError) in
                let copy = try statement(.copyIDs)
                copy.bind(through, at: 1)
                copy.bind(state.headPosition, at: 2)
                try copy.run()
                let move = try statement(.moveIDIndex)
                move.bind(state.headPosition, at: 1)
                try move.run()
            }
        } catch {
            rollbackWrite()
            throw error
        }
        // Everything up to the transaction's head is in memory; the copied ids join the filter.
        recentIDs.loaded(through: state.headPosition)
        recentIDs.indexed(through: state.headPosition)
        write?.indexedIDs()
    }

    /// An event this transaction wrote.
    func addID(_ key: EventIDKey, position: Int64) {
        if configuration.buildsNewJournal {
            loadIDs?.add(key, position: position)
            return
        }
        recentIDs.add(key, position: position)
        write?.addedID(key)
    }

    /// Takes the ids a rolled-back transaction added out of the memory of the tail; when it had
    /// copied ids into the index, forgets the memory altogether (the next transaction reloads it).
    func forgetIDs(ofTransaction state: WriteState) {
        loadIDs?.dropPending()
        if state.copiedIDs {
            recentIDs.reset()
        } else {
            for key in state.addedIDs { recentIDs.remove(key) }
        }
    }

    /// Takes the ids added under a rolled-back savepoint (since `mark`) out of the memory.
    /// Copies happen only outside savepoints, so none happened since the savepoint's mark.
    func forgetIDs(ofSavepoint state: WriteState, since mark: WriteState.Mark) {
        loadIDs?.dropPending(after: mark.headPosition)
        for key in state.addedIDs.dropFirst(mark.addedIDCount) { recentIDs.remove(key) }
    }
}
