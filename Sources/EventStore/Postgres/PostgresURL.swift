/// Connection strings: recognizing a PostgreSQL URL and removing its secrets before it is shown.
public enum PostgresURL {
    /// True for a `postgres://` or `postgresql://` URL (the CLI's backend switch).
    public static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// The location with every credential replaced by `***`: the password of the URL's
    /// `user:password@` part and the value of any `password=` parameter (URL query or libpq's
    /// key=value form). Safe to print in messages, logs and errors.
    public static func redacted(_ location: String) -> String {
        var bytes = Array(location.utf8)
        // user:password@ in the authority (between "://" and the next "/" or "?").
        if let scheme = bytes.firstRange(of: Array("://".utf8)) {
            let start = scheme.upperBound
            let end =
                bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
                ?? bytes.endIndex
            if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")),
                let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":"))
            {
                bytes.replaceSubrange((colon + 1)..<at, with: Array("***".utf8))
            }
        }
        // password=… after the start, "?", "&" or a space.
        let key = Array("password=".utf8)
        var index = 0
        while index + key.count <= bytes.count {
            let matches = (0..<key.count).allSatisfy { lowercase(bytes[index + $0]) == key[$0] }
            let boundary =
                index == 0 || [UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: " ")].contains(bytes[index - 1])
            guard matches && boundary else {
                index += 1
                continue
            }
            let valueStart = index + key.count
            let valueEnd =
                bytes[valueStart...].firstIndex(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: " ") })
                ?? bytes.endIndex
            bytes.replaceSubrange(valueStart..<valueEnd, with: Array("***".utf8))
            index = valueStart + 3
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The password the location carries (the URL's `user:password@` or the first `password=`),
    /// for scrubbing messages that might echo it; nil when there is none.
    static func password(in location: String) -> String? {
        let original = Array(location.utf8)
        let redacted = Array(redacted(location).utf8)
        guard let start = original.indices.first(where: { $0 >= redacted.count || original[$0] != redacted[$0] }) else {
            return nil
        }
        // After the first "***" the redacted text continues with what followed the password.
        let stars = Array("***".utf8)
        guard start + 3 <= redacted.count, Array(redacted[start..<(start + 3)]) == stars else { return nil }
        let follow = redacted[(start + 3)...].prefix(while: { $0 != UInt8(ascii: "*") })
        var end = original.count
        if let next = follow.first {
            end = original[start...].firstIndex(of: next) ?? original.count
        }
        let password = String(decoding: original[start..<end], as: UTF8.self)
        return password.isEmpty ? nil : password
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
