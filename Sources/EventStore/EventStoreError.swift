/// Every failure of the store, with context. Payload bytes never appear in a description.
public struct EventStoreError: Error, Sendable, CustomStringConvertible {
    /// A family of failures that can grow without breaking a caller's `switch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case invalidInput, conflict, duplicateIDConflict, integrity, notAJournal, readOnly, missing,
                full, busy, io, tooLarge, needsUpgrade
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }
        /// A stream name, event id or payload that breaks a rule of the store.
        public static let invalidInput = Code(.invalidInput)
        /// The expected version did not match the stream.
        public static let conflict = Code(.conflict)
        /// An event id is already stored with other content.
        public static let duplicateIDConflict = Code(.duplicateIDConflict)
        /// The hash chain, positions or versions do not check.
        public static let integrity = Code(.integrity)
        /// The database file exists but is not a journal (or is damaged).
        public static let notAJournal = Code(.notAJournal)
        public static let readOnly = Code(.readOnly)
        /// The journal does not exist (read-only commands never create one).
        public static let missing = Code(.missing)
        /// The disk or the database size limit is full.
        public static let full = Code(.full)
        /// Another writer held the lock beyond the busy timeout.
        public static let busy = Code(.busy)
        public static let io = Code(.io)
        /// A payload over the size limit.
        public static let tooLarge = Code(.tooLarge)
        /// The journal was written by an older version and opened read-only: what it lacks (the
        /// Merkle tree) appears once a writing command opens it.
        public static let needsUpgrade = Code(.needsUpgrade)
        public var description: String { kind.rawValue }
    }

    public var code: Code
    public var message: String
    public var stream: String?
    public var expectedVersion: ExpectedVersion?
    public var actualVersion: Int64?
    public var position: Int64?
    public var eventID: String?
    /// The backend's own error code (SQLite extended result code, PostgreSQL SQLSTATE), if any.
    public var backendCode: String?

    public init(
        code: Code, message: String, stream: String? = nil, expectedVersion: ExpectedVersion? = nil,
        actualVersion: Int64? = nil, position: Int64? = nil, eventID: String? = nil,
        backendCode: String? = nil
    ) {
        self.code = code
        self.message = message
        self.stream = stream
        self.expectedVersion = expectedVersion
        self.actualVersion = actualVersion
        self.position = position
        self.eventID = eventID
        self.backendCode = backendCode
    }

    public var description: String { message }

    public static func invalidStreamName(_ name: String) -> EventStoreError {
        EventStoreError(
            code: .invalidInput,
            message: "invalid stream name \"\(name.prefix(80))\": expected <category>-<id>",
            stream: name)
    }
}
