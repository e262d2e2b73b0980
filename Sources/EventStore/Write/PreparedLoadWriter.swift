/// The bulk writer of a new journal's load (`SQLiteJournalLoad`): it owns the load's preparer,
/// used on the thread that makes the batches (the store's rules, packed ids, chain link bodies
/// and hashes, compression: `LoadPreparer`), and writes each prepared batch through the load,
/// whose writer then only finds streams, numbers, hashes and writes rows.
///
/// A store gives one through `BatchAppending.preparedLoadWriter()`: a journal load does; a
/// store that appends batches the usual way (SQLite, PostgreSQL) answers nil, and a
/// `BatchPipeline` then gives it `[StreamAppend]` for its `append(_:)`.
public final class PreparedLoadWriter {
    /// Prepares the batches, on one producing thread at a time.
    let preparer: LoadPreparer
    private let load: SQLiteJournalLoad

    init(load: SQLiteJournalLoad) throws(EventStoreError) {
        self.load = load
        preparer = try load.makePreparer()
    }

    /// The batch of `appends`, prepared on the calling thread (drops a batch begun event by
    /// event with the preparer).
    func prepare(_ appends: [StreamAppend]) -> PreparedLoadBatch { preparer.prepare(appends) }

    /// Writes a batch this writer's preparer made, in one transaction of the load (all or
    /// nothing); returns the number of events written.
    func write(_ batch: PreparedLoadBatch) throws(EventStoreError) -> Int { try load.append(batch) }

    /// Hands back a batch written (or refused): the next one is built in its arrays.
    func reuse(_ batch: consuming PreparedLoadBatch) { preparer.reuse(batch) }
}
