/// A UTC instant with millisecond precision, written exactly as `YYYY-MM-DDTHH:MM:SS.sssZ`.
///
/// The journal's only time type. It is a count of milliseconds since 1970-01-01T00:00:00.000Z,
/// so comparing and subtracting are integer operations and formatting is exact and portable
/// (no Foundation `Date`, no locale, no time zone database).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    public func adding(milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds)
    }

    /// Parses the envelope format exactly: `YYYY-MM-DDTHH:MM:SS.sssZ`, nothing else.
    public init?(_ text: String) {
        var text = text
        guard let value = text.withUTF8({ Timestamp.parse($0) }) else { return nil }
        self = value
    }

    /// Parses a `--since`/`--until` argument (and any option or parameter taking a time): an
    /// RFC 3339 UTC timestamp `YYYY-MM-DDTHH:MM:SS[.f…]Z` with 0 to 9 fraction digits (`T`/`Z`
    /// in either case, `+00:00` for `Z`), or a date `YYYY-MM-DD` meaning midnight UTC. A
    /// fraction finer than a millisecond is rounded up to the next one: events have millisecond
    /// times, so `occurredAt ≥ T` and `occurredAt < T` keep the same events. The envelope's
    /// `occurredAt` stays strict (``init(_:)``).
    public init?(queryBound text: String) {
        if let exact = Timestamp(text) {
            self = exact
            return
        }
        if text.utf8.count == 10 {
            guard let midnight = Timestamp(text + "T00:00:00.000Z") else { return nil }
            self = midnight
            return
        }
        var bytes = Array(text.utf8)
        if bytes.count > 6, bytes.suffix(6).elementsEqual("+00:00".utf8) {
            bytes.removeLast(6)
            bytes.append(UInt8(ascii: "Z"))
        }
        guard bytes.count >= 20, bytes[10] | 0x20 == UInt8(ascii: "t"),
            bytes.last.map({ $0 | 0x20 }) == UInt8(ascii: "z")
        else { return nil }
        let seconds = bytes[0..<19]
        var fraction = bytes[19..<(bytes.count - 1)]
        if !fraction.isEmpty {
            guard fraction.first == UInt8(ascii: "."), (2...10).contains(fraction.count) else { return nil }
            fraction = fraction.dropFirst()
        }
        guard fraction.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let digits = Array(fraction) + Array(repeating: UInt8(ascii: "0"), count: 9 - fraction.count)
        let millis = String(decoding: digits[0..<3], as: UTF8.self)
        let finer = digits[3...].contains { $0 != UInt8(ascii: "0") }
        var canonical = Array(seconds)
        canonical[10] = UInt8(ascii: "T")
        guard let whole = Timestamp(String(decoding: canonical, as: UTF8.self) + ".\(millis)Z") else { return nil }
        self = finer ? whole.adding(milliseconds: 1) : whole
    }

    private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard b.count == 24, b[4] == 0x2D, b[7] == 0x2D, b[10] == UInt8(ascii: "T"), b[13] == 0x3A,
            b[16] == 0x3A, b[19] == 0x2E, b[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<(from + count) {
                let byte = b[i]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let millis = number(20, 3)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Timestamp(millisecondsSinceEpoch: seconds * 1000 + Int64(millis))
    }

    /// Why `text`, written in the envelope's shape (`YYYY-MM-DDTHH:MM:SS.sssZ`, digits and
    /// separators in place), names no instant: `2026-02 has no day 30`, `hour 25 does not exist
    /// (00 to 23)`. nil when `text` is not of that shape (a format error) or is a valid timestamp.
    public static func impossibleDateReason(_ text: String) -> String? {
        let b = Array(text.utf8)
        guard b.count == 24, b[4] == 0x2D, b[7] == 0x2D, b[10] == UInt8(ascii: "T"), b[13] == 0x3A,
            b[16] == 0x3A, b[19] == 0x2E, b[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in b[from..<(from + count)] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            number(20, 3) != nil
        else { return nil }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if !(1...12).contains(month) { return "month \(two(month)) does not exist (01 to 12)" }
        if day < 1 || day > daysIn(month: month, year: year) {
            return "\(text.prefix(7)) has no day \(two(day)) (01 to \(daysIn(month: month, year: year)))"
        }
        if hour > 23 { return "hour \(two(hour)) does not exist (00 to 23)" }
        if minute > 59 { return "minute \(two(minute)) does not exist (00 to 59)" }
        if second > 59 { return "second \(two(second)) does not exist (00 to 59)" }
        return nil
    }

    /// The envelope format, e.g. `2026-11-29T10:15:02.125Z`.
    public var description: String {
        var out = [UInt8]()
        out.reserveCapacity(24)
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The length of the envelope format: `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    package static let textByteCount = 24

    /// Appends the envelope format (``description``'s bytes) to `out`.
    public func write(into out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(byteCount: Self.textByteCount, alignment: 1) { buffer in
            write(to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeRawBufferPointer(buffer))
        }
    }

    /// Writes the envelope format's ``textByteCount`` bytes at `start`, which must have room for
    /// them: the leaf line's renderer writes into memory it sized for the whole line.
    package func write(to start: UnsafeMutableRawPointer) {
        let millis = Int(((millisecondsSinceEpoch % 1000) + 1000) % 1000)
        let totalSeconds = (millisecondsSinceEpoch - Int64(millis)) / 1000
        let secondsOfDay = Int(((totalSeconds % 86_400) + 86_400) % 86_400)
        let days = Int((totalSeconds - Int64(secondsOfDay)) / 86_400)
        let (year, month, day) = Timestamp.civil(fromDays: days)
        let out = start.assumingMemoryBound(to: UInt8.self)
        // The year keeps its last four digits, as written one by one.
        var rest = year
        for index in stride(from: 3, through: 0, by: -1) {
            out[index] = UInt8(0x30 + rest % 10)
            rest /= 10
        }
        // Two digits of a value in 0...99 from a table of "00" to "99".
        let pairs = Self.digitPairs.utf8Start
        func two(_ value: Int, at index: Int) {
            out[index] = pairs[2 * value]
            out[index + 1] = pairs[2 * value + 1]
        }
        out[4] = 0x2D
        two(month, at: 5)
        out[7] = 0x2D
        two(day, at: 8)
        out[10] = UInt8(ascii: "T")
        two(secondsOfDay / 3600, at: 11)
        out[13] = 0x3A
        two(secondsOfDay / 60 % 60, at: 14)
        out[16] = 0x3A
        two(secondsOfDay % 60, at: 17)
        out[19] = 0x2E
        out[20] = UInt8(0x30 + millis / 100)
        two(millis % 100, at: 21)
        out[23] = UInt8(ascii: "Z")
    }

    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days (public domain algorithms).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
