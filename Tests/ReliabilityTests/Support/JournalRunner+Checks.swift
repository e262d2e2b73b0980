import Foundation

extension JournalRunner {
    /// `journal verify --format json`, parsed.
    struct Verification {
        var status: Int32
        var events: Int?
        var firstBadPosition: Int?
        var stdout: String
        var stderr: String
    }

    /// - Parameter emptyIfMissing: count a journal that was never created (or whose creation
    ///   was killed before it committed) as intact and empty, as a process killed before its
    ///   first commit leaves it.
    func verification(timeout: Double = 600, emptyIfMissing: Bool = false, database: String? = nil) throws
        -> Verification
    {
        let result = try run(
            ["verify", "--format", "json", "--db", database ?? self.database], timeout: timeout, db: false)
        let status: Int32
        switch result.ending {
        case let .exited(code): status = code
        case .killed, .timedOut: status = -1
        }
        if emptyIfMissing && status == 1 && result.stderr.hasPrefix("error: no journal at ") {
            return Verification(
                status: 0, events: 0, firstBadPosition: nil, stdout: result.stdout, stderr: result.stderr)
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        return Verification(
            status: status, events: object?["events"] as? Int,
            firstBadPosition: object?["firstBadPosition"] as? Int,
            stdout: result.stdout, stderr: result.stderr)
    }

    /// The `id` of every exported event from `position` on, in position order.
    func exportedIDs(from position: Int = 0) throws -> [String] {
        try exportedObjects(["--from-position", String(position)]).map { $0["id"] as? String ?? "" }
    }
}

/// The `id` of an NDJSON line built by `LegalEvents` (its first key).
func idOf(_ line: String) -> String {
    guard let start = line.range(of: #""id":""#)?.upperBound,
        let end = line[start...].firstIndex(of: "\"")
    else { return "" }
    return String(line[start..<end])
}
