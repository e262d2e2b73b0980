#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process: its environment, temporary folders, its end.
package enum CurrentProcess {
    /// The value of the environment variable `name`, or nil when it is not set (`getenv`; the
    /// journal never changes its own environment).
    package static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Creates a new folder `prefix` + six random characters (`mkdtemp`, mode 0700) and returns
    /// its path.
    package static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw Errno.current }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// This process's id (`getpid`).
    package static var id: Int32 { getpid() }

    /// True when the process runs as root (effective user id 0).
    package static var isRoot: Bool { geteuid() == 0 }

    /// The user and group ids of the user `name` (`getpwnam`), nil when there is no such user.
    package static func user(named name: String) -> (user: UInt32, group: UInt32)? {
        guard let entry = getpwnam(name) else { return nil }
        return (UInt32(entry.pointee.pw_uid), UInt32(entry.pointee.pw_gid))
    }

    /// Runs `body` when the process ends through `exit` (`atexit`).
    package static func atExit(_ body: @escaping @convention(c) () -> Void) {
        atexit(body)
    }

    /// Ends the process with `status` (C `exit`: buffered C streams are flushed).
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }
}
