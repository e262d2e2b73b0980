/// A backend journal that lends the log's rows one at a time (`scanRows`), from which the
/// borrowing scan (``EventScanning/scanAll(from:limit:_:)``) and the lending read
/// (`readAll(from:limit:_:)`, ``LentEvent``) are made the same way on every backend.
protocol RowLending {
    /// Calls `body` with each event from `position` on (at most `limit`, until it returns
    /// false), with its stream's and type's names when `lendsNames` (or when the chain check
    /// reads them), empty otherwise; every link is checked. Returns the events passed.
    func scanRows(
        from position: Int64, limit: Int, lendsNames: Bool,
        _ body: (ScannedEvent, _ stream: UnsafeRawBufferPointer, _ type: UnsafeRawBufferPointer) -> Bool
    ) throws(EventStoreError) -> Int
}

extension RowLending {
    /// The log from `position`, lent row by row (see ``EventScanning``): names stay integer ids.
    func scanAll(from position: Int64, limit: Int, _ body: (ScannedEvent) -> Bool) throws(EventStoreError) -> Int {
        try scanRows(from: position, limit: limit, lendsNames: false) { event, _, _ in body(event) }
    }

    /// The log from `position` lent row by row with the names of each event's stream and type
    /// (``LentEvent``): the names the chain check spells into the link, in place.
    func readAll(from position: Int64, limit: Int, _ body: (LentEvent) -> Bool) throws(EventStoreError) -> Int {
        try scanRows(from: position, limit: limit, lendsNames: true) { event, stream, type in
            body(LentEvent(row: event, stream: stream, type: type))
        }
    }
}
