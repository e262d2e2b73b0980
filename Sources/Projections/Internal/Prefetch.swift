import JournalCore
import Glibc

/// A pthread mutex (the reader's state is shared with its prefetch thread).
final class ReaderLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// The next batch, read on another thread while the engine applies the current one.
final class Prefetch {
    let from: Int64
    let limit: Int
    private let task: BackgroundTask<Result<EventBatch, ProjectionError>>

    init(from: Int64, limit: Int, _ read: @escaping @Sendable () -> Result<EventBatch, ProjectionError>) {
        self.from = from
        self.limit = limit
        task = BackgroundTask(read)
    }

    /// Waits for the read to finish.
    func wait() -> Result<EventBatch, ProjectionError> { task.wait() }
}
