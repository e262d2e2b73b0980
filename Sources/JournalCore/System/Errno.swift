#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A C library error number, with the C library's text for it.
package struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`.
    package static var current: Errno { Errno(rawValue: errno) }

    package static let interrupted = Errno(rawValue: EINTR)
    package static let ioError = Errno(rawValue: EIO)
    package static let fileExists = Errno(rawValue: EEXIST)
    package static let noSuchFile = Errno(rawValue: ENOENT)
    package static let fileTooLarge = Errno(rawValue: EFBIG)
    /// Not a C error number: a file that ended before the bytes a caller needed.
    package static let endOfFile = Errno(rawValue: -1)

    package var description: String {
        self == .endOfFile ? "unexpected end of file" : String(cString: strerror(rawValue))
    }
}
