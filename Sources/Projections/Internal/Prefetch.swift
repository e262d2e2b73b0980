import Dispatch
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
final class Prefetch: @unchecked Sendable {
    let from: Int64
    let limit: Int
    private let done = DispatchSemaphore(value: 0)
    /// Written by the reading thread before `done` is signalled, read after `wait`.
    private var result: Result<EventBatch, ProjectionError>?

    init(from: Int64, limit: Int) {
        self.from = from
        self.limit = limit
    }

    func start(_ read: @escaping @Sendable () -> Result<EventBatch, ProjectionError>) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = read()
            done.signal()
        }
    }

    /// Waits for the read to finish.
    func wait() -> Result<EventBatch, ProjectionError> {
        done.wait()
        return result!
    }
}
