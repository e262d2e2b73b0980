/// The cheap read path for folds over the whole log (the projections), on the reader session.
extension PostgresEventStore: EventScanning {
    @discardableResult
    public func scanAll(from position: Int64, limit: Int, _ body: (ScannedEvent) -> Bool) throws(EventStoreError) -> Int
    {
        try reading { journal throws(EventStoreError) in try journal.scanAll(from: position, limit: limit, body) }
    }

    public func streamNames(fromID: Int64, limit: Int) throws(EventStoreError) -> [(id: Int64, name: String)] {
        try reading { journal throws(EventStoreError) in try journal.streamNames(fromID: fromID, limit: limit) }
    }

    public func streamEnds(fromID: Int64, limit: Int) throws(EventStoreError)
        -> [(id: Int64, name: String, lastPosition: Int64?)]
    {
        try reading { journal throws(EventStoreError) in try journal.streamEnds(fromID: fromID, limit: limit) }
    }

    public func streamName(id: Int64) throws(EventStoreError) -> String {
        try reading { journal throws(EventStoreError) in try journal.name(id: id, in: "journal_streams", what: "stream")
        }
    }

    public func typeName(id: Int64) throws(EventStoreError) -> String {
        try reading { journal throws(EventStoreError) in
            try journal.name(id: id, in: "journal_types", what: "event type")
        }
    }
}
