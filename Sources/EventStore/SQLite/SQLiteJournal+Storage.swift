extension SQLiteJournal {
    func storageStatistics() throws(EventStoreError) -> SQLiteEventStore.StorageStatistics {
        try run("measuring storage") { () throws(SQLiteError) in
            let statement = try sql.cached(
                """
                SELECT count(*), coalesce(sum(codec != 0), 0), coalesce(sum(length(payload)), 0),
                       coalesce(sum(data_len + coalesce(meta_len, 0)), 0) FROM journal_events
                """)
            defer { statement.reset() }
            _ = try statement.step()
            let pageCount = try sql.scalarInt("PRAGMA page_count") ?? 0
            let pageSize = try sql.scalarInt("PRAGMA page_size") ?? 0
            let freePages = try sql.scalarInt("PRAGMA freelist_count") ?? 0
            return SQLiteEventStore.StorageStatistics(
                events: statement.int64(at: 0), compressedEvents: statement.int64(at: 1),
                storedPayloadBytes: statement.int64(at: 2), payloadBytes: statement.int64(at: 3),
                dictionaries: try sql.scalarInt("SELECT count(*) FROM journal_dictionaries") ?? 0,
                databaseBytes: (pageCount - freePages) * pageSize)
        }
    }

    /// Stores a new dictionary version trained on the last `count` events (inside a write
    /// transaction); new events use it, older ones keep the version they were written with.
    func trainNewDictionary(fromLast count: Int64) throws(EventStoreError) -> Int64? {
        guard let head = write?.headPosition, head > 0 else { return nil }
        var samples: [(type: Int64, payload: [UInt8])] = []
        let statement = try run("reading events to train a dictionary") { () throws(SQLiteError) in
            try sql.cached("SELECT \(Self.columns) FROM journal_events WHERE position > ? ORDER BY position")
        }
        statement.bind(max(head - count, 0), at: 1)
        defer { statement.reset() }
        while try run("reading events to train a dictionary", { () throws(SQLiteError) in try statement.step() }) {
            let (data, meta) = try decodePayload(statement, position: statement.int64(at: 0))
            samples.append((statement.int64(at: 4), data + (meta ?? [])))
        }
        let content = LZ4Dictionary.train(samples: samples, maxSize: configuration.dictionarySize)
        guard !content.isEmpty else { return nil }
        return try storeDictionary(content, trainedThrough: head)
    }
}
