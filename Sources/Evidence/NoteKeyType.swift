/// The signature type byte of a note key (C2SP signed-note): it starts the key's base64 field
/// and goes into its id (``NoteKeyID``).
public enum NoteKeyType: UInt8, Sendable, Hashable, CaseIterable {
    /// A log's Ed25519 key: its signature line holds the Ed25519 signature of the note's text.
    case ed25519 = 0x01
    /// A witness's Ed25519 cosigning key (C2SP tlog-cosignature, `cosignature/v1`): its
    /// signature line holds a timestamp and the signature of ``Cosignature/message(time:text:)``.
    case cosignatureV1 = 0x04

    /// How a person calls the type.
    public var summary: String {
        switch self {
        case .ed25519: "an Ed25519 signing key"
        case .cosignatureV1: "an Ed25519 cosignature/v1 (witness) key"
        }
    }
}
