import JournalCore

/// The next batch, read on another thread while the engine applies the current one.
final class Prefetch {
    let from: Int64
    let limit: Int
    private let task: BackgroundTask<Result<EventBatch, ProjectionError>>

    init(from: Int64, limit: Int, _ read: sending @escaping () -> Result<EventBatch, ProjectionError>) {
        self.from = from
        self.limit = limit
        task = BackgroundTask(read)
    }

    /// Waits for the read to finish and takes its batch (once).
    func wait() -> Result<EventBatch, ProjectionError> { task.wait() }

    /// Waits for the read to finish, dropping its batch.
    func finish() { task.finish() }
}
