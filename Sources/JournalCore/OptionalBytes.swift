/// The bytes of an optional array lent to a body (nil stays nil): the store's optional `meta`
/// payloads, hashed and written without a copy.
public enum OptionalBytes {
    @inlinable
    public static func with<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBytes { body($0) }
    }
}
