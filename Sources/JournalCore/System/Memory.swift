#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Searches and comparisons of raw memory with the C library's vectorised routines (`memchr`,
/// `memcmp`): a line feed in an input buffer, a quote in a payload, a NUL ending a C string, a
/// field's bytes against the same field's before.
package enum Memory {
    /// The offset of the first `byte` in the `count` bytes at `start`, or nil.
    @inlinable
    package static func firstIndex(of byte: UInt8, in start: UnsafeRawPointer, count: Int) -> Int? {
        guard count > 0, let found = memchr(start, Int32(byte), count) else { return nil }
        return UnsafeRawPointer(found) - start
    }

    /// True when the `count` bytes at `a` and at `b` are the same.
    @inlinable
    package static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        count <= 0 || memcmp(a, b, count) == 0
    }
}
