/// The id of a note key: the first 4 bytes (big-endian) of SHA-256(name ‖ 0x0A ‖ type ‖ public
/// key), where type is the key's ``NoteKeyType`` byte (0x01 for a log's Ed25519 key, 0x04 for a
/// witness's cosignature/v1 key).
package enum NoteKeyID {
    /// The algorithm byte of Ed25519 keys.
    package static let ed25519: UInt8 = NoteKeyType.ed25519.rawValue

    package static func compute(name: String, type: NoteKeyType = .ed25519, publicKey: [UInt8]) -> UInt32 {
        let hash = LibCrypto.sha256 { input in
            input.update(Array(name.utf8))
            input.update(byte: 0x0A)
            input.update(byte: type.rawValue)
            input.update(publicKey)
        }
        return hash.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// 8 lowercase hex digits.
    package static func text(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// 8 hex digits (either case, as Go's `strconv.ParseUint` takes them), or nil.
    package static func parse(_ text: some StringProtocol) -> UInt32? {
        guard text.utf8.count == 8, text.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit })
        else { return nil }
        return UInt32(text, radix: 16)
    }

    /// The id's 4 big-endian bytes.
    package static func bytes(_ id: UInt32) -> [UInt8] {
        [UInt8(id >> 24), UInt8(id >> 16 & 0xFF), UInt8(id >> 8 & 0xFF), UInt8(id & 0xFF)]
    }
}
