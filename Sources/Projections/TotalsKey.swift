/// Builds and splits the `|`-separated keys of the totals. Components come from event data
/// (error codes are free strings), so `%` and `|` inside them are escaped as `%25` and `%7C`.
public enum TotalsKey {
    public static func make(_ components: String...) -> String {
        components.map(escape).joined(separator: "|")
    }

    public static func split(_ key: String) -> [String] {
        key.split(separator: "|", omittingEmptySubsequences: false).map { unescape(String($0)) }
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "%") }) else { return text }
        return text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "|", with: "%7C")
    }

    static func unescape(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        return text.replacingOccurrences(of: "%7C", with: "|").replacingOccurrences(of: "%25", with: "%")
    }
}
