extension SQLiteEventStore: EventScanning {
    @discardableResult
    public func scanAll(from position: Int64, limit: Int, _ body: (ScannedEvent) -> Bool) throws(EventStoreError) -> Int
    {
        try reading { connection throws(EventStoreError) in try connection.scanAll(from: position, limit: limit, body) }
    }

    public func streamNames(fromID: Int64, limit: Int) throws(EventStoreError) -> [(id: Int64, name: String)] {
        try reading { connection throws(EventStoreError) in try connection.streamNames(fromID: fromID, limit: limit) }
    }

    public func streamEnds(fromID: Int64, limit: Int) throws(EventStoreError)
        -> [(id: Int64, name: String, lastPosition: Int64?)]
    {
        try reading { connection throws(EventStoreError) in try connection.streamEnds(fromID: fromID, limit: limit) }
    }

    public func streamName(id: Int64) throws(EventStoreError) -> String {
        try reading { connection throws(EventStoreError) in try connection.streamName(of: id).rawValue }
    }

    public func typeName(id: Int64) throws(EventStoreError) -> String {
        try reading { connection throws(EventStoreError) in try connection.typeName(of: id) }
    }
}
