#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's signal dispositions and limits a server needs: SIGPIPE ignored (a peer that
/// hangs up is an error on the socket, not the end of the process), SIGTERM and SIGINT taken
/// by a thread that waits for them, as many descriptors as the hard limit allows.
package enum ProcessSignals {
    /// Ignores SIGPIPE for the whole process.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Raises the soft limit on open descriptors to the hard limit (one descriptor per
    /// connection); left as it is when the limits cannot be read.
    package static func raiseDescriptorLimit() {
        var files = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        if getrlimit(resource, &files) == 0 && files.rlim_cur < files.rlim_max {
            files.rlim_cur = files.rlim_max
            _ = setrlimit(resource, &files)
        }
    }

    /// SIGTERM and SIGINT, blocked for the calling thread and every thread it starts after,
    /// so that one thread takes them with `wait()`.
    package struct StopSignals: Sendable {
        private let set: sigset_t

        /// Blocks SIGTERM and SIGINT; call before any other thread starts (threads inherit the
        /// mask).
        package init() {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGTERM)
            sigaddset(&set, SIGINT)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            self.set = set
        }

        /// Blocks until SIGTERM or SIGINT arrives.
        package func wait() {
            var signals = set
            var received: Int32 = 0
            while sigwait(&signals, &received) != 0 {}
        }
    }
}
