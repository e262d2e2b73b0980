import JournalCore

/// The chain link of an event, for callers that check hashes outside the store (the CLI's audit
/// view, an external verifier reading an export). Layout: see `ChainHasher.swift`.
public enum EventHashing {
    /// The hash `event` must carry when the event before it has hash `previous` (pass
    /// `zeroHash` for position 1).
    public static func linkHash(previous: [UInt8], event: RecordedEvent) throws(EventStoreError) -> [UInt8] {
        let hasher = ChainHasher()
        return event.data.withUnsafeBytes { data in
            OptionalBytes.with(event.meta) { meta in
                hasher.hash(
                    previous: previous, position: event.position, version: event.version,
                    stream: event.stream.rawValue, id: event.id, type: event.type,
                    occurredAt: event.occurredAt, recordedAt: event.recordedAt, data: data, meta: meta)
            }
        }
    }

    /// SHA-256 of `bytes` (OpenSSL).
    public static func sha256(_ bytes: [UInt8]) throws(EventStoreError) -> [UInt8] {
        ChainHasher().digest(bytes)
    }

    /// The 32 zero bytes position 1 links to.
    public static let zeroHash = ChainHasher.zeroHash

    /// Lowercase hexadecimal, as `VerifyReport.headHash` and exports write hashes.
    public static func hex(_ bytes: [UInt8]) -> String { bytes.hexString }
}
