/// An export file that ``ExportVerifier`` accepted: its first `checkpoint.size` lines are the
/// signed log.
public struct VerifiedExport: Sendable {
    public let checkpoint: SignedCheckpoint
    /// The lines after the checkpoint's size: events the checkpoint says nothing about (a
    /// journal that grew after it was signed), counted but not checked.
    public let linesAfter: Int64
    /// True when the file started with a UTF-8 byte order mark, which was skipped.
    public let skippedByteOrderMark: Bool
}
