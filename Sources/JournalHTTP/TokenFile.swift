import EventStore
import JournalApp
import JournalCore

/// What a bearer token may do (spec §8): `read` every GET, `append` `POST /v1/events`,
/// `admin` everything.
package enum TokenRole: String, Sendable, CaseIterable {
    case read
    case append
    case admin

    func allows(method: String, route: APIRoute) -> Bool {
        switch self {
        case .admin: return true
        case .read: return method == "GET"
        case .append: return method == "POST" && route == .events
        }
    }
}

/// The tokens file of `journal serve --tokens FILE`: one line per token,
/// `<role> <name> sha256:<hex SHA-256 of the token>`. Only hashes are kept, on disk and in
/// memory; a presented token is hashed and compared with every entry in constant time.
package struct TokenFile: Sendable {
    package struct Entry: Sendable {
        var role: TokenRole
        var name: String
        /// 64 lowercase hex digits.
        var digest: [UInt8]
    }

    private(set) var entries: [Entry]

    /// Reads and checks the file: a line that is not `<role> <name> sha256:<64 hex>` is an
    /// error naming its line number (blank lines and lines starting with `#` are skipped), and
    /// so is a file without any token.
    package static func load(path: String) throws(CLIError) -> TokenFile {
        let bytes = try WholeFile.read(
            path, what: "tokens file", maxBytes: 1 << 24,
            hint: "create it with 'journal token ROLE NAME --tokens \(TextRendering.printable(path))'")
        var entries: [Entry] = []
        for (index, line) in String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            guard fields.count == 3, let role = TokenRole(rawValue: String(fields[0])), isName(String(fields[1])),
                fields[2].hasPrefix("sha256:"), isDigest(fields[2].dropFirst(7))
            else {
                throw CLIError(
                    .failure,
                    "tokens file \(TextRendering.printable(path)), line \(index + 1): expected "
                        + "'<read|append|admin> <name> sha256:<64 hex digits>'",
                    hint: "lines are written by 'journal token ROLE NAME --tokens FILE'")
            }
            entries.append(Entry(role: role, name: String(fields[1]), digest: Array(fields[2].dropFirst(7).utf8)))
        }
        guard !entries.isEmpty else {
            throw CLIError(
                .failure,
                "the tokens file \(TextRendering.printable(path)) holds no token: every request would be refused",
                hint: "add one with 'journal token ROLE NAME --tokens \(TextRendering.printable(path))'")
        }
        return TokenFile(entries: entries)
    }

    /// The entry whose hash is the presented token's, looked for in time that does not depend
    /// on where (or whether) it matches.
    func entry(forToken token: String) -> Entry? {
        let digest = Array(Self.digest(of: token).utf8)
        var found: Entry?
        for entry in entries where Self.constantTimeEqual(entry.digest, digest) && found == nil {
            found = entry
        }
        return found
    }

    package static func digest(of token: String) -> String {
        let digest = SHA256Digest()
        digest.update(token)
        return digest.finish()
    }

    /// Compares every byte whatever the first difference (equal lengths: both are 64 hex digits).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// A token name: 1 to 64 of `A-Z a-z 0-9 . _ -`.
    package static func isName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }

    private static func isDigest(_ text: Substring) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// A new random token: 32 bytes from the kernel's random source, as 64 hex digits.
    package static func newToken() throws(CLIError) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        let random: FileDescriptor
        do {
            random = try FileDescriptor.open("/dev/urandom", .readOnly)
        } catch {
            throw CLIError(.failure, "cannot open /dev/urandom for a token: \(error)")
        }
        defer { random.close() }
        let read: Result<Void, Errno> = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try random.readExactly(into: raw) }
        }
        if case let .failure(error) = read {
            throw CLIError(.failure, "cannot read random bytes for a token: \(error)")
        }
        return Hex.string(bytes)
    }

    /// The names of the file's token lines (second field; blank and `#` lines skipped). A line
    /// that is not a token line is left to `load` to report.
    private static func names(path: String) throws(CLIError) -> Set<String> {
        let bytes = try WholeFile.read(path, what: "tokens file", maxBytes: 1 << 24)
        var names: Set<String> = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.count >= 2, !fields[0].hasPrefix("#") { names.insert(String(fields[1])) }
        }
        return names
    }

    /// Appends `<role> <name> sha256:<hex>` to the file, creating it with mode 0600 (and
    /// making an existing file 0600: it says who may write the journal). A name already in the
    /// file is refused (exit 1) and nothing is written.
    package static func append(role: TokenRole, name: String, digest: String, path: String) throws(CLIError) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .writeOnly, options: [.append, .create], permissions: 0o600)
        } catch {
            throw CLIError(.failure, "cannot open the tokens file \(TextRendering.printable(path)): \(error)")
        }
        defer { file.close() }
        // One writer at a time, so that two runs cannot both add the same name.
        do {
            try file.lockExclusively()
        } catch {
            throw CLIError(.failure, "cannot lock the tokens file \(TextRendering.printable(path)): \(error)")
        }
        if try names(path: path).contains(name) {
            throw CLIError(
                .failure,
                "the tokens file \(TextRendering.printable(path)) already has a token named '\(name)'; "
                    + "nothing was written",
                hint: "choose another name, or delete that line first to replace the token")
        }
        do {
            try file.setPermissions(0o600)
        } catch {
            throw CLIError(
                .failure, "cannot make \(TextRendering.printable(path)) private (mode 0600): \(error)")
        }
        let line = Array("\(role.rawValue) \(name) sha256:\(digest)\n".utf8)
        do {
            try file.writeAll(line)
            try file.sync()
        } catch {
            throw CLIError(.failure, "cannot write the tokens file \(TextRendering.printable(path)): \(error)")
        }
    }
}
