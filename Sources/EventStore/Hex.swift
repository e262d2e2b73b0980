/// Lowercase hexadecimal, as exports, leaf lines and `VerifyReport.headHash` write hashes.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    package static func string(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        bytes.withUnsafeBytes { append($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends two lowercase hex digits per byte of `bytes` to `out`.
    package static func append(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
    }

    /// The bytes of 2n hex digits (only for text ``string(_:)`` produced).
    package static func bytes(_ hex: String) -> [UInt8] {
        func value(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10 }
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }
}
