extension Array {
    /// `withUnsafeBytes` for a body with a typed error (the standard one rethrows it untyped).
    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBytes { bytes in Result { () throws(E) in try body(bytes) } }.get()
    }

    /// `withUnsafeMutableBytes` for a body with a typed error.
    package mutating func withMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R)
        throws(E) -> R
    {
        try withUnsafeMutableBytes { bytes in Result { () throws(E) in try body(bytes) } }.get()
    }
}
