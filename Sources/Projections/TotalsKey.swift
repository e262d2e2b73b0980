/// Builds and splits the `|`-separated keys of the totals. Components come from event data
/// (error codes are free strings), so `%` and `|` inside them are escaped as `%25` and `%7C`.
public enum TotalsKey {
    public static func make(_ components: String...) -> String {
        components.map(escape).joined(separator: "|")
    }

    // Fixed-arity forms for the folds' hot path (no variadic array per event).
    public static func make(_ metric: String, _ a: String) -> String {
        metric + "|" + escape(a)
    }

    public static func make(_ metric: String, _ a: String, _ b: String) -> String {
        metric + "|" + escape(a) + "|" + escape(b)
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
