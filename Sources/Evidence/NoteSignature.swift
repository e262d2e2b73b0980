/// One signature line of a signed note: `— <name> <base64(key id ‖ signature)>`.
public struct NoteSignature: Sendable, Equatable {
    public let name: String
    public let keyID: UInt32
    /// The signature bytes after the 4-byte key id (64 for Ed25519).
    public let signature: [UInt8]

    public init(name: String, keyID: UInt32, signature: [UInt8]) {
        self.name = name
        self.keyID = keyID
        self.signature = signature
    }

    /// The line without its line feed. An em dash (U+2014) and a space come first.
    public var line: String { "— \(name) \(Base64.encode(NoteKeyID.bytes(keyID) + signature))" }
}
