#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of the package's own, started with a body and joined once it returns: the server's
/// writer, long-poll follower and read workers, and each `BackgroundTask`.
// Unchecked Sendable: `thread` is set before the object is shared, cleared only by its owner's `join()`.
package final class SystemThread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private var thread: pthread_t?

    /// Starts a thread running `body`; nil when the system refuses one.
    package init?(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        var created = pthread_t()
        // unsafe: the context is this object, retained until the thread has taken it back.
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(
            &created, nil,
            { context in
                let thread = Unmanaged<SystemThread>.fromOpaque(context!).takeRetainedValue()
                thread.body()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<SystemThread>.fromOpaque(context).release()
            return nil
        }
        thread = created
    }

    /// Waits for the body to return (once; later calls return at once).
    package func join() {
        guard let running = thread else { return }
        thread = nil
        pthread_join(running, nil)
    }
}
