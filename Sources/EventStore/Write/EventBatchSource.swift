/// What a bulk append writes, given batch by batch, in order, to a `BatchPipeline`: the source
/// says which events go to which stream at which expected version; the store's side decides the
/// form each batch takes (`EventBatchSink`), so a source names no backend.
///
/// The pipeline fills each batch on a thread of its own while the store writes the batch
/// before; it fills one batch at a time and waits for each before it starts the next, so a
/// source need not be `Sendable`: the pipeline hands it over (`HandOver`) with its sink.
package protocol EventBatchSource: AnyObject {
    /// Gives the next batch's events to `sink`, in order, at most `limit` of them:
    /// `sink.beginAppend(to:expectedVersion:)` before each run of consecutive events of one
    /// stream, then `sink.add` for each event of the run. Giving none means the source is over.
    /// - Throws: what keeps the source from giving an event; the batch is dropped and the
    ///   pipeline stops with this error.
    func fillBatch(into sink: EventBatchSink, limit: Int) throws(EventStoreError)
}
