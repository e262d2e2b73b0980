import EventStore

/// Every failure of the projections, with context. Never carries payload bytes.
public struct ProjectionError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The read-model database failed (I/O, corruption, SQL).
        case database
        /// Another writer held the lock beyond the busy timeout.
        case busy
        /// Reading the event log failed.
        case eventStore
        /// An unknown projection or query name.
        case unknownName
        /// An event in the log that a projection cannot read (should never happen for a valid journal).
        case badEvent
        /// An event read from the log does not match its stored hash: the log was changed behind
        /// the journal's back (`position` names it).
        case integrity
        /// An answer that would be too large to compute or print (`--every` buckets beyond the limit).
        case tooLarge
    }

    public var code: Code
    public var message: String
    /// The SQLite result code, when the database failed.
    public var backendCode: Int32?
    /// The log position involved, if any.
    public var position: Int64?

    public init(_ code: Code, _ message: String, backendCode: Int32? = nil, position: Int64? = nil) {
        self.code = code
        self.message = message
        self.backendCode = backendCode
        self.position = position
    }

    public var description: String { message }

    /// A failure of the log's store while reading from `from`: an event that does not check
    /// stays an integrity failure at its own position.
    static func reading(_ error: any Error, from: Int64) -> ProjectionError {
        if let error = error as? EventStoreError, error.code == .integrity {
            return ProjectionError(.integrity, error.message, position: error.position ?? from)
        }
        return ProjectionError(.eventStore, "cannot read the log from position \(from): \(error)", position: from)
    }
}
