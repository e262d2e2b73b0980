import JournalCore

/// Masking with the guard's own detection, for everything that echoes a refused input: the
/// rejects file of `journal import`, its error lines and its JSON report (spec §4).
extension SensitiveDataGuard {
    /// What a masked value or digit run becomes.
    public static let redacted = "[redacted]"

    /// `value` with what spec §3.3 forbids replaced by `"[redacted]"`: each value under a
    /// forbidden key (whatever it holds), each integer of 13 to 19 digits and each string that
    /// holds a card number, as ``check(data:meta:)`` judges them. Applied to the whole value,
    /// top-level keys included, so nothing the guard refuses survives anywhere in a line. Key
    /// order and number spelling are kept; `changed` is false when nothing was masked.
    public static func masked(_ value: JSONValue) -> (value: JSONValue, changed: Bool) {
        switch value {
        case .null, .bool:
            return (value, false)
        case let .number(number):
            return isCardNumberInteger(number.text) ? (.string(redacted), true) : (value, false)
        case let .string(string):
            return containsCardNumber(string) ? (.string(redacted), true) : (value, false)
        case let .array(array):
            var changed = false
            let elements = array.map { element -> JSONValue in
                let result = masked(element)
                changed = changed || result.changed
                return result.value
            }
            return changed ? (.array(elements), true) : (value, false)
        case let .object(object):
            var changed = false
            let entries = object.entries.map { entry -> (key: String, value: JSONValue) in
                if isForbiddenKey(entry.key) {
                    changed = true
                    return (entry.key, .string(redacted))
                }
                let result = masked(entry.value)
                changed = changed || result.changed
                return (entry.key, result.value)
            }
            return changed ? (.object(JSONObject(entries)), true) : (value, false)
        }
    }

    /// `text` (a line that is not JSON, or a message built from one) with every run of 13 to 19
    /// ASCII digits, single spaces or dashes between them included, replaced by `[redacted]`
    /// (spec §4). A run of 20 or more digits is not a card number and is kept; so are the
    /// digits of a whole UUID (8-4-4-4-12 hex digits), which only look like a run because of
    /// their dashes.
    public static func maskedText(_ text: String) -> String {
        var digitCount = 0
        for byte in text.utf8 where byte >= 0x30 && byte <= 0x39 { digitCount += 1 }
        guard digitCount >= 13 else { return text }
        let scalars = Array(text.unicodeScalars)
        let inUUID = uuidScalars(scalars)
        var ranges: [ClosedRange<Int>] = []
        forEachDigitRun(in: scalars, skip: inUUID) { run in
            if run.digits.count >= 13 && run.digits.count <= 19 { ranges.append(run.start...run.last) }
            return true
        }
        guard !ranges.isEmpty else { return text }
        var out = String.UnicodeScalarView()
        var index = 0
        for range in ranges {
            out.append(contentsOf: scalars[index..<range.lowerBound])
            out.append(contentsOf: redacted.unicodeScalars)
            index = range.upperBound + 1
        }
        out.append(contentsOf: scalars[index...])
        return String(out)
    }

    /// A line that is not JSON, masked for the rejects file: ``maskedText(_:)``, and also, since
    /// a broken line can still hold an OTP or a CVV, the value after each forbidden key written
    /// as JSON (`"otp": "123456"`, `"cvv":123`, `"tav": {…}`) becomes `"[redacted]"`, up to the
    /// value's end or the end of the line.
    public static func maskedNonJSONLine(_ text: String) -> String {
        maskedText(maskingForbiddenKeyValues(text))
    }

    private static func maskingForbiddenKeyValues(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        var copied = 0
        func skipSpaces(_ from: Int) -> Int {
            var at = from
            while at < scalars.count && (scalars[at] == " " || scalars[at] == "\t") { at += 1 }
            return at
        }
        while index < scalars.count {
            guard scalars[index] == "\"" else {
                index += 1
                continue
            }
            // A quoted text: a key when a colon follows.
            var close = index + 1
            while close < scalars.count && scalars[close] != "\"" {
                close += scalars[close] == "\\" ? 2 : 1
            }
            guard close < scalars.count else { break }
            var unscalars = String.UnicodeScalarView()
            unscalars.append(contentsOf: scalars[(index + 1)..<close])
            let colon = skipSpaces(close + 1)
            guard colon < scalars.count, scalars[colon] == ":", isForbiddenKey(String(unscalars)) else {
                index = close + 1
                continue
            }
            let valueStart = skipSpaces(colon + 1)
            let valueEnd = endOfValue(scalars, from: valueStart)
            out.append(contentsOf: scalars[copied..<valueStart])
            out.append(contentsOf: "\"\(redacted)\"".unicodeScalars)
            copied = valueEnd
            index = valueEnd
        }
        guard copied > 0 else { return text }
        out.append(contentsOf: scalars[copied...])
        return String(out)
    }

    /// Where a JSON-looking value starting at `start` ends: after its closing quote or bracket,
    /// before the delimiter after a bare value, or at the end of the text.
    private static func endOfValue(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        guard start < scalars.count else { return start }
        var at = start
        switch scalars[start] {
        case "\"":
            at += 1
            while at < scalars.count && scalars[at] != "\"" { at += scalars[at] == "\\" ? 2 : 1 }
            return min(at + 1, scalars.count)
        case "{", "[":
            var depth = 0
            var inString = false
            while at < scalars.count {
                let scalar = scalars[at]
                if inString {
                    if scalar == "\\" { at += 1 } else if scalar == "\"" { inString = false }
                } else if scalar == "\"" {
                    inString = true
                } else if scalar == "{" || scalar == "[" {
                    depth += 1
                } else if scalar == "}" || scalar == "]" {
                    depth -= 1
                    if depth == 0 { return at + 1 }
                }
                at += 1
            }
            return scalars.count
        default:
            while at < scalars.count && ![",", "}", "]", " ", "\t"].contains(scalars[at]) { at += 1 }
            return at
        }
    }

    /// Marks the scalars of every UUID (8-4-4-4-12 hex digits) not glued to another hex digit.
    private static func uuidScalars(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var marks = [Bool](repeating: false, count: scalars.count)
        func isHex(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "0"..."9", "a"..."f", "A"..."F": return true
            default: return false
            }
        }
        let length = 36
        var index = 0
        while index + length <= scalars.count {
            let fits =
                (index == 0 || !isHex(scalars[index - 1]))
                && (index + length == scalars.count || !isHex(scalars[index + length]))
                && (0..<length).allSatisfy { offset in
                    let scalar = scalars[index + offset]
                    return [8, 13, 18, 23].contains(offset) ? scalar == "-" : isHex(scalar)
                }
            if fits {
                for offset in 0..<length { marks[index + offset] = true }
                index += length
            } else {
                index += 1
            }
        }
        return marks
    }
}
