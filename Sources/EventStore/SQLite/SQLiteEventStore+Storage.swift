extension SQLiteEventStore {
    /// What the journal's file holds, for size reports and tests.
    public struct StorageStatistics: Sendable, Equatable {
        public var events: Int64
        /// Events whose payload is stored LZ4-compressed (the others are raw).
        public var compressedEvents: Int64
        /// Bytes of `payload` as stored (compressed or raw).
        public var storedPayloadBytes: Int64
        /// Bytes of data + meta as appended.
        public var payloadBytes: Int64
        /// Dictionary versions stored.
        public var dictionaries: Int64
        /// Bytes of the database's used pages (the file size after a checkpoint, minus free pages).
        public var databaseBytes: Int64
    }

    public func storageStatistics() throws(EventStoreError) -> StorageStatistics {
        try commits.exclusive(reentrant: true) { connection throws(EventStoreError) in
            try connection.storageStatistics()
        }
    }

    /// Trains a new LZ4 dictionary version on the last `events` events and makes it the one new
    /// events are compressed with. Events written earlier keep referring to the version they were
    /// written with, so they stay readable. Returns the new version (nil for an empty journal).
    @discardableResult
    public func trainDictionary(fromLast events: Int64 = 1_000) throws(EventStoreError) -> Int64? {
        if commits.isHeldByCurrentThread {
            throw EventStoreError(
                code: .invalidInput, message: "trainDictionary called inside a write transaction of the same store")
        }
        return try commits.exclusive { connection throws(EventStoreError) -> Int64? in
            try connection.inWriteTransaction { () throws(EventStoreError) in
                try connection.trainNewDictionary(fromLast: events)
            }
        }
    }
}
