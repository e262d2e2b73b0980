/// What the first bytes of an input say about its encoding: UTF-8 (the journal's only input
/// encoding), with or without a byte order mark, or UTF-16, which a text editor or PowerShell
/// may have saved and which is refused once, as a whole, rather than line by line.
public enum InputEncoding: Sendable, Equatable {
    /// UTF-8; `byteOrderMark`: the input starts with EF BB BF, which is skipped.
    case utf8(byteOrderMark: Bool)
    /// UTF-16 of either byte order, told by its byte order mark or, without one, by where the
    /// NUL bytes of ASCII characters fall.
    case utf16(bigEndian: Bool, byteOrderMark: Bool)

    /// How many bytes of the prefix to judge: enough for a byte order mark and a few characters.
    public static let sniffedByteCount = 64

    /// The encoding that `prefix` (the input's first bytes, up to ``sniffedByteCount``) shows.
    /// Without a byte order mark, UTF-16 is recognised when the first character is ASCII (a NUL
    /// byte beside a non-NUL one) and at least half of the byte pairs follow that pattern: UTF-8
    /// text has no NUL bytes at all.
    public static func sniff(_ prefix: some Collection<UInt8>) -> InputEncoding {
        let bytes = Array(prefix.prefix(sniffedByteCount))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8(byteOrderMark: true) }
        if bytes.starts(with: [0xFF, 0xFE]) { return .utf16(bigEndian: false, byteOrderMark: true) }
        if bytes.starts(with: [0xFE, 0xFF]) { return .utf16(bigEndian: true, byteOrderMark: true) }
        let pairs = bytes.count / 2
        guard pairs >= 1 else { return .utf8(byteOrderMark: false) }
        var littleEndian = 0
        var bigEndian = 0
        for pair in 0..<pairs {
            let (first, second) = (bytes[2 * pair], bytes[2 * pair + 1])
            if first != 0 && second == 0 { littleEndian += 1 }
            if first == 0 && second != 0 { bigEndian += 1 }
        }
        if bytes[0] != 0 && bytes[1] == 0 && 2 * littleEndian >= pairs {
            return .utf16(bigEndian: false, byteOrderMark: false)
        }
        if bytes[0] == 0 && bytes[1] != 0 && 2 * bigEndian >= pairs {
            return .utf16(bigEndian: true, byteOrderMark: false)
        }
        return .utf8(byteOrderMark: false)
    }

    /// The bytes to skip at the start: 3 for a UTF-8 byte order mark, else 0.
    public var skippedByteCount: Int {
        switch self {
        case let .utf8(byteOrderMark): byteOrderMark ? 3 : 0
        case .utf16: 0
        }
    }

    /// The name iconv reads this encoding by (`-f`); nil for UTF-8.
    public var iconvName: String? {
        switch self {
        case .utf8: nil
        case let .utf16(bigEndian, byteOrderMark): byteOrderMark ? "UTF-16" : bigEndian ? "UTF-16BE" : "UTF-16LE"
        }
    }

    /// Why the input cannot be read, naming the command that converts it (`what`: "file",
    /// "body"); nil for UTF-8. With a byte order mark iconv's `UTF-16` reads either order;
    /// without one it would assume big-endian, so the order is named.
    public func problem(what: String = "file") -> String? {
        switch self {
        case .utf8:
            return nil
        case let .utf16(bigEndian, byteOrderMark):
            let order = byteOrderMark ? "" : " (\(bigEndian ? "big" : "little")-endian, without a byte order mark)"
            return "this \(what) is UTF-16\(order); convert it with iconv -f \(iconvName ?? "UTF-16") -t UTF-8"
        }
    }
}
