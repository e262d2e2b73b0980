import JournalCore

/// Where a bulk append (`journal simulate`) writes, as the store chose it for the journal it
/// found: the store itself, or, where there is no journal yet, a load that writes the new
/// journal in one go (`BatchLoadWriting`). Both take the same `BatchPipeline`, which gives each
/// the form of batch it writes fastest; only a load must be finished.
package enum BulkAppendTarget {
    /// A journal that may hold events (an existing file, `:memory:`, PostgreSQL): ordinary
    /// appends, one write transaction per batch.
    case store(any TransactionalEventStore)
    /// A new journal: nothing is at its location until `finish()` returns.
    case load(any BatchLoadWriting)
}

/// A new journal being written batch by batch, for a bulk append: every batch is one
/// transaction of a file nobody sees until `finish()` puts it at the journal's location;
/// `abandon()`, or dropping the load, leaves nothing there.
package protocol BatchLoadWriting: BatchAppending {
    /// Builds the indexes and puts the journal at its location. Returns the number of events.
    /// After it returns or throws, the load is over.
    /// - Throws: `.duplicateIDConflict` when an id occurs twice in the load (nothing written),
    ///   `.conflict` when a journal appeared at the location meanwhile, the store's errors.
    @discardableResult
    func finish() throws(EventStoreError) -> Int64

    /// Ends the load without a journal. Idempotent.
    func abandon()
}
