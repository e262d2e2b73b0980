/// The first thing about an export file that does not hold against a signed checkpoint. Lines
/// are numbered from 1, as `journal export` wrote them (line L is the event at position L).
public enum ExportVerificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The checkpoint note is malformed or not signed by a trusted key named as its origin.
    case checkpoint(CheckpointError)
    /// The file is not UTF-8 (it is UTF-16): the reason names the command that converts it.
    case encoding(String)
    /// The file ends after `lines` lines, before the checkpoint's `size`.
    case tooFewLines(lines: Int64, size: Int64)
    /// Line `line` is not a line `journal export` prints.
    case notAnExportLine(line: Int64, reason: String)
    /// The tree over lines 1 … `line` (the checkpoint's size) has another root than the
    /// checkpoint's.
    case rootMismatch(line: Int64, root: [UInt8], expected: [UInt8])
    /// The file could not be read (not a failure of the check itself).
    case unreadable(String)

    /// The first line where the check cannot hold (nil when no line is to blame).
    public var line: Int64? {
        switch self {
        case .checkpoint, .encoding, .unreadable: nil
        case let .tooFewLines(lines, _): lines + 1
        case let .notAnExportLine(line, _): line
        case let .rootMismatch(line, _, _): line
        }
    }

    public var description: String {
        switch self {
        case let .checkpoint(error):
            "checkpoint: \(error)"
        case let .encoding(reason):
            reason
        case let .tooFewLines(lines, size):
            "line \(lines + 1): the file ends after \(lines) line\(lines == 1 ? "" : "s"), "
                + "but the checkpoint's tree has \(size) events"
        case let .notAnExportLine(line, reason):
            "line \(line): not an export line: \(reason)"
        case let .rootMismatch(line, root, expected):
            "line \(line): the tree over lines 1…\(line) has the root \(Base64.encode(root)), not the "
                + "checkpoint's \(Base64.encode(expected)): a line up to here differs from the log that was signed"
        case let .unreadable(reason):
            reason
        }
    }
}
