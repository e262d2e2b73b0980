/// Why a mirror (C2SP tlog-tiles files in a folder) could not be written, read or trusted.
public struct MirrorError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The files do not hold what the signed checkpoint commits to, or the checkpoint is not
        /// signed by the key: the mirror (or the journal it is compared with) cannot be trusted.
        case integrity
        /// Nothing was done: the folder cannot be used as asked (another log's mirror, an event
        /// too long for an entry bundle, no checkpoint kept).
        case refused
        /// A file could not be read or written.
        case io
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
