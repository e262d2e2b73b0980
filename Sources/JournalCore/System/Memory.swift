#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Searches and comparisons of raw memory with the C library's vectorised routines (`memchr`,
/// `memcmp`): a line feed in an input buffer, a quote in a payload, a NUL ending a C string, a
/// field of a state against the one before.
package enum Memory {
    /// The offset of the first `byte` in the `count` bytes at `start`, or nil.
    @inlinable
    package static func firstIndex(of byte: UInt8, in start: UnsafeRawPointer, count: Int) -> Int? {
        guard count > 0, let found = memchr(start, Int32(byte), count) else { return nil }
        return UnsafeRawPointer(found) - start
    }

    /// True when the `count` bytes at `first` and at `second` are the same. Short runs (a
    /// field's value) are compared here, eight bytes at a time, without a call.
    @inlinable
    package static func equal(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        guard count > 32 else {
            var offset = 0
            while offset + 8 <= count {
                guard
                    first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            while offset < count {
                guard
                    first.load(fromByteOffset: offset, as: UInt8.self)
                        == second.load(fromByteOffset: offset, as: UInt8.self)
                else { return false }
                offset += 1
            }
            return true
        }
        return memcmp(first, second, count) == 0
    }
}
