/// A string's UTF-8 bytes lent to a closure, in place when the string stores them contiguously
/// (native strings do), else through a copy.
///
/// In place means without copying the string itself: a copy retains its storage, and when
/// another thread made the string (the simulator's generator, for the store's appending
/// thread) that retain is an atomic operation on a cache line of the other core, which cost
/// more than the checks that read the bytes.
public enum UTF8Bytes {
    @inlinable
    public static func with<S: StringProtocol, R>(_ text: S, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
