/// A witness as a log sees it: where to submit checkpoints, and its cosignature/v1 key.
public struct WitnessEndpoint: Sendable, Equatable {
    /// The submission prefix (`http://HOST:PORT[/PATH]`); requests go to `<url>/add-checkpoint`.
    public var url: String
    public var key: NoteVerifier

    public init(url: String, key: NoteVerifier) {
        self.url = url
        self.key = key
    }

    /// The URL of `add-checkpoint`.
    public var addCheckpointURL: String {
        var prefix = Substring(url)
        while prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        return prefix.hasSuffix("/add-checkpoint") ? String(prefix) : prefix + "/add-checkpoint"
    }

    /// Parses a policy file of witnesses (`journal serve --cosign-with`): one witness per line,
    /// `<URL> <verifier key>`; blank lines and lines starting with `#` are skipped. Errors name
    /// the line.
    public static func policy(parsing text: String) throws(WitnessPolicyError) -> [WitnessEndpoint] {
        var witnesses: [WitnessEndpoint] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: " \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2 else {
                throw WitnessPolicyError(line: offset + 1, reason: "expected '<URL> <witness verifier key>'")
            }
            guard fields[0].hasPrefix("http://") else {
                throw WitnessPolicyError(line: offset + 1, reason: "the URL is not http://HOST:PORT[/PATH]")
            }
            let key: NoteVerifier
            do {
                key = try NoteVerifier(parsing: String(fields[1]))
            } catch {
                throw WitnessPolicyError(line: offset + 1, reason: "\(error)")
            }
            guard key.type == .cosignatureV1 else {
                throw WitnessPolicyError(
                    line: offset + 1, reason: "\(key.name) is \(key.type.summary), not a witness key")
            }
            witnesses.append(WitnessEndpoint(url: String(fields[0]), key: key))
        }
        guard !witnesses.isEmpty else { throw WitnessPolicyError(line: 0, reason: "no witness in the policy") }
        return witnesses
    }
}

/// A line of a witness policy that could not be read (line 0: the whole file).
public struct WitnessPolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { line == 0 ? reason : "line \(line): \(reason)" }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        let skip: (Character) -> Bool = { set.contains($0) }
        return Substring(drop(while: skip).reversed().drop(while: skip).reversed())
    }
}
