import JournalCore

/// Chunks made one ahead on another thread: while the caller works on chunk k, `produce` makes
/// chunk k + 1. The chunks come out in the order `produce` makes them; only the thread differs.
/// Used for the lines of `journal import` (read and prepared from a file, `PreparedLines`) and of
/// a large `POST /v1/events` body (prepared from memory, `EventsAppend.PreparedChunks`).
///
/// `produce` and `retired` are used by one thread at a time: each chunk's `BackgroundTask` (to
/// which the object is handed over, `HandOver`) is waited for before the next one starts, and
/// by `finish()`.
package final class ChunksAhead<Chunk: Sendable, Failure: Error> {
    private let produce: () -> Result<Chunk?, Failure>
    private var ahead: BackgroundTask<Result<Chunk?, Failure>>?
    /// A chunk the caller is done with, freed by the next chunk's thread.
    private var retired: Chunk?

    /// `produce` gives the next chunk, nil after the last, or the failure that ends the chunks.
    package init(_ produce: @escaping () -> Result<Chunk?, Failure>) {
        self.produce = produce
    }

    /// The next chunk (nil after the last); starts making the one after it. `previous`, the
    /// chunk the caller is done with, is handed over to be freed on the other thread: dropping
    /// a chunk of parsed events takes time from the caller, which sets the pace.
    package func next(after previous: Chunk? = nil) throws(Failure) -> Chunk? {
        let result = ahead?.wait() ?? produce()
        ahead = nil
        retired = previous
        let chunk = try result.get()
        if chunk != nil {
            let chunks = HandOver(self)
            ahead = BackgroundTask {
                let next = chunks.value.produce()
                // After the chunk is made: by then the caller has let go of its reference too.
                chunks.value.retired = nil
                return next
            }
        }
        return chunk
    }

    /// Waits for the chunk being made, if any (the caller stops early or is done).
    package func finish() {
        _ = ahead?.wait()
        ahead = nil
    }
}
