#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Searches of raw memory with the C library's vectorised routines (`memchr`): a line feed in
/// an input buffer, a quote in a payload, a NUL ending a C string.
package enum Memory {
    /// The offset of the first `byte` in the `count` bytes at `start`, or nil.
    @inlinable
    package static func firstIndex(of byte: UInt8, in start: UnsafeRawPointer, count: Int) -> Int? {
        guard count > 0, let found = memchr(start, Int32(byte), count) else { return nil }
        return UnsafeRawPointer(found) - start
    }
}
