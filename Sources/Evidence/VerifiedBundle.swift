import JournalCore

/// A bundle that ``BundleVerifier`` accepted: its checkpoint and its events, leaf lines parsed.
public struct VerifiedBundle: Sendable {
    public struct Event: Sendable {
        public let position: Int64
        public let version: Int64
        /// The leaf line (the export line).
        public let leaf: String
        /// The leaf line as a JSON object (the export envelope).
        public let object: JSONObject
    }

    public let stream: String
    public let checkpoint: SignedCheckpoint
    public let events: [Event]
}
