#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX thread running one closure, for tests whose work must not wait for the cooperative
/// thread pool (which a blocking follower may be holding).
struct TestThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    let handle: pthread_t

    static func start(_ body: @escaping @Sendable () -> Void) -> TestThread {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var handle = pthread_t()
        let rc = pthread_create(
            &handle, nil,
            { context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                box.body()
                return nil
            }, context)
        precondition(rc == 0, "pthread_create failed: \(rc)") // no thread is an environment we cannot test in
        return TestThread(handle: handle)
    }

    func join() { pthread_join(handle, nil) }
}
