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

    /// Ends the process with `status` (C `exit`: buffered C streams are flushed).
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }
}
