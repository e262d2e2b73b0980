import Glibc

/// A thread of `journal serve`'s own (the append writer, the long-poll follower, the workers
/// that answer reads): started with a body, joined once it returns.
final class ServeThread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private var thread: pthread_t?

    /// Starts a thread running `body`; nil when the system refuses one.
    init?(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        var created = pthread_t()
        // unsafe: the context is this object, retained until the thread has taken it back.
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&created, nil, { context in
            let thread = Unmanaged<ServeThread>.fromOpaque(context!).takeRetainedValue()
            thread.body()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<ServeThread>.fromOpaque(context).release()
            return nil
        }
        thread = created
    }

    /// Waits for the body to return (once; later calls return at once).
    func join() {
        guard let running = thread else { return }
        thread = nil
        pthread_join(running, nil)
    }
}
