import Domain

/// How the text output writes numbers for people: durations, directory servers, shares.
public enum Readable {
    /// A duration in milliseconds: `850 ms`, `1.2 s`, `1 min 30 s` (under 10 minutes),
    /// `14 min`, `4 h 2 min`, `2 d 3 h`. Rounded to the unit shown, half up.
    public static func duration(_ ms: Int64) -> String {
        if ms < 0 { return "-" + duration(-ms) }
        if ms < 1_000 { return "\(ms) ms" }
        if ms < 59_950 {
            let tenths = (ms + 50) / 100
            return "\(tenths / 10).\(tenths % 10) s"
        }
        let seconds = (ms + 500) / 1_000
        if seconds < 600 { return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s" }
        let minutes = (ms + 30_000) / 60_000
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 1_440 { return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min" }
        let hours = (ms + 1_800_000) / 3_600_000
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
    }

    /// `Visa A000000003`; an ID no scheme is known by stays as it is.
    public static func directoryServer(_ id: String) -> String {
        DirectoryServer.schemeName(id).map { "\($0) \(id)" } ?? id
    }

    /// `58.3 %` (one decimal, half to even from the exact quotient), nil when `whole` is 0.
    public static func share(_ part: Int64, of whole: Int64) -> String? {
        guard let tenths = Rate.rounded(part, whole, scale: 1_000) else { return nil }
        let magnitude = tenths.magnitude
        return (tenths < 0 ? "-" : "") + "\(magnitude / 10).\(magnitude % 10) %"
    }
}
