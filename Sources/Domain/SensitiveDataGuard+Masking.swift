import JournalCore

/// Masking with the guard's own detection, for everything that echoes a refused input: the
/// rejects file of `journal import`, its error lines and its JSON report (contract §4).
extension SensitiveDataGuard {
    /// What a masked value or digit run becomes.
    public static let redacted = "[redacted]"

    /// `value` with what contract §3.3 forbids replaced by `"[redacted]"`: each value under a
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
    /// (contract §4). A run of 20 or more digits is not a card number and is kept; so are the
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
            let fits = (index == 0 || !isHex(scalars[index - 1]))
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
