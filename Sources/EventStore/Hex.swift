/// Lowercase hexadecimal, as exports, leaf lines and `VerifyReport.headHash` write hashes.
package enum Hex {
    package static func string(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        bytes.withUnsafeBytes { append($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends two lowercase hex digits per byte of `bytes` to `out`.
    package static func append(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        withUnsafeTemporaryAllocation(byteCount: 2 * bytes.count, alignment: 2) { buffer in
            write(bytes, to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeRawBufferPointer(buffer))
        }
    }

    /// Writes two lowercase hex digits per byte of `bytes` at `start`, which has room for them:
    /// one store of a digit pair per byte (the leaf line's writer hexes a hash per event).
    package static func write(_ bytes: UnsafeRawBufferPointer, to start: UnsafeMutableRawPointer) {
        let pairs = UnsafeRawPointer(pairTable.utf8Start)
        for (index, byte) in bytes.enumerated() {
            start.storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: 2 * Int(byte), as: UInt16.self),
                toByteOffset: 2 * index, as: UInt16.self)
        }
    }

    /// "00" to "ff": the two digits of each byte value, in order.
    private static let pairTable: StaticString = """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
        202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\
        404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f\
        808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f\
        a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf\
        e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """

    /// The bytes of 2n hex digits (only for text ``string(_:)`` produced).
    package static func bytes(_ hex: String) -> [UInt8] {
        func value(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10 }
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }
}
