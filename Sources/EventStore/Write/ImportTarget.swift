import JournalCore

/// Where a bulk import writes, as the store chose it for the journal it found: the store's own
/// write transaction, or, for a journal that holds no events yet, a load that writes the new
/// journal in one go (`EventLoadWriting`). The importer checks the same rules either way; only
/// what it must ask the store differs: a load has no stored event to look up or fold.
package enum ImportTarget {
    /// A journal that may hold events: appended to in one of the store's write transactions,
    /// each id looked up, each stream folded from what is stored.
    case store(any TransactionalEventStore)
    /// A new journal: every stream starts empty, and the events are written in batches while
    /// the next ones are checked. An id that occurs twice in the load fails `finish()` with
    /// `.duplicateIDConflict`: the caller then imports again through `.store`, which tells an
    /// idempotent duplicate from a conflict (docs/decisions/import-load.md).
    case load(any EventLoadWriting)
}

/// A new journal being loaded event by event, for a bulk import: `append` checks an event
/// against the store's rules (the errors `EventStore.append` throws for it) and queues it;
/// whole batches are prepared and written on another thread. Nothing is visible at the
/// journal's location until `finish()` returns; `abandon()` leaves nothing there.
package protocol EventLoadWriting: AnyObject {
    /// Appends one event at the end of the load: `expectedVersion` must be the stream's version
    /// as the appends before left it (the caller keeps count: a load has no reads). Returns the
    /// event's position.
    /// - Throws: `.invalidInput` or `.tooLarge` for an event the store's rules refuse (nothing
    ///   queued, the load goes on); any error of a batch written before (the load is over).
    /// An event without `recordedAt` gets the store's clock, as an append does.
    func append(_ event: consuming ProposedEvent, to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> Int64

    /// Writes what is queued, builds the indexes and puts the journal at its location. Returns
    /// the number of events. After it returns or throws, the load is over.
    /// - Throws: `.duplicateIDConflict` when an id occurs twice in the load (nothing written),
    ///   the store's errors.
    @discardableResult
    func finish() throws(EventStoreError) -> Int64

    /// Ends the load without a journal. Idempotent.
    func abandon()
}
