#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which thread is running (`pthread_self`): lets a lock's owner recognise a re-entrant call
/// from its own thread (group commit refuses an append made inside the store's own `write`).
package struct ThreadIdentity: Equatable, Sendable {
    /// Compared only (`pthread_equal`), never used to reach the thread.
    private let thread: pthread_t

    /// The calling thread.
    package static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    package static func == (left: ThreadIdentity, right: ThreadIdentity) -> Bool {
        pthread_equal(left.thread, right.thread) != 0
    }
}
