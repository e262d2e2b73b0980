import JournalCore

/// The sensitive-data rule of spec §3.3, applied to every event before it can be stored.
///
/// An event is refused when its `data` or `meta`
/// - holds a key named `otp`, `otpValue`, `challengeDataEntry`, `challengeHTMLDataEntry`, `tav`,
///   `cryptogram`, `pan`, `cardNumber`, `cvv`, `cvc` or `pushToken`, at any depth (inside arrays
///   too), in any letter case; or
/// - holds a value that looks like a card number:
///   - a JSON integer of 13 to 19 digits (no sign, fraction or exponent), judged on the number's
///     text, never through a floating-point value. The Luhn check applies to string runs only,
///     so any such integer is refused; or
///   - inside a string, a maximal run of 13 to 19 ASCII digits in which single spaces or single
///     dashes may stand between digits, touched by no letter or digit of any script on either
///     side, whose digits pass the Luhn check. A run of 20 or more digits is not a card number,
///     and a string that is a whole UUID is exempt.
///
/// Keys are not searched for card numbers (spec §3.3). The violation names the path
/// of the key or value (`data.challenge.OTP`, `meta.items[2]`) and never the value.
public enum SensitiveDataGuard {
    /// The forbidden keys, lowercased.
    public static let forbiddenKeys: [String] = [
        "otp", "otpvalue", "challengedataentry", "challengehtmldataentry", "tav", "cryptogram", "pan",
        "cardnumber", "cvv", "cvc", "pushtoken"
    ]

    /// The first violation in `data`, then in `meta`, or nil when the event may be stored.
    public static func check(data: JSONValue, meta: JSONValue?) -> SensitiveDataViolation? {
        // A first walk keeps no path (nearly every event passes, and keeping one allocates); a
        // violation is walked to again, keeping the path that names it.
        var noPath: [PathComponent]?
        var clean = scan(data, root: "data", path: &noPath) == nil
        if clean, let meta { clean = scan(meta, root: "meta", path: &noPath) == nil }
        if clean { return nil }
        var path: [PathComponent]? = []
        if let violation = scan(data, root: "data", path: &path) { return violation }
        if let meta { return scan(meta, root: "meta", path: &path) }
        return nil
    }

    /// Convenience for an event's `data` object and optional `meta` object.
    public static func check(data: JSONObject, meta: JSONObject?) -> SensitiveDataViolation? {
        check(data: .object(data), meta: meta.map { .object($0) })
    }

    // MARK: - Walking

    enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// The first violation in `value`, its path recorded in `path` when `path` is not nil.
    private static func scan(_ value: JSONValue, root: String, path: inout [PathComponent]?)
        -> SensitiveDataViolation?
    {
        switch value {
        case .null, .bool:
            return nil
        case let .number(number):
            return isCardNumberInteger(number.text) ? violation(.cardNumber, root, path ?? []) : nil
        case let .string(string):
            return containsCardNumber(string) ? violation(.cardNumber, root, path ?? []) : nil
        case let .array(array):
            for (index, element) in array.enumerated() {
                path?.append(.index(index))
                if let found = scan(element, root: root, path: &path) { return found }
                path?.removeLast()
            }
            return nil
        case let .object(object):
            for entry in object.entries {
                path?.append(.key(entry.key))
                if isForbiddenKey(entry.key) { return violation(.forbiddenKey, root, path ?? []) }
                if let found = scan(entry.value, root: root, path: &path) { return found }
                path?.removeLast()
            }
            return nil
        }
    }

    private static func violation(_ kind: SensitiveDataViolation.Kind, _ root: String, _ path: [PathComponent])
        -> SensitiveDataViolation
    {
        var text = root
        for component in path {
            switch component {
            case let .key(key):
                if isPlainKey(key) {
                    text += "." + key
                } else {
                    var bytes: [UInt8] = []
                    JSONWriter.writeString(key, into: &bytes)
                    text += "[" + String(decoding: bytes, as: UTF8.self) + "]"
                }
            case let .index(index):
                text += "[\(index)]"
            }
        }
        return SensitiveDataViolation(kind: kind, path: text)
    }

    /// Keys written as `.key` in a path: ASCII letters, digits, `_` and `$`, not starting with a digit.
    private static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
        return key.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
                || byte == 0x24
        }
    }

    // MARK: - Keys

    /// True when `key` is a forbidden key in any letter case.
    public static func isForbiddenKey(_ key: String) -> Bool {
        if let found = asciiForbiddenKey(key.utf8) { return found }
        // Non-ASCII: compare with Unicode lowercasing (e.g. a KELVIN SIGN standing for `k`).
        return forbiddenKeys.contains(key.lowercased())
    }

    /// True when the ASCII key `key` (a flat member's key, read in place) is a forbidden key
    /// in any letter case; the same answer as `isForbiddenKey(_:)` for the key as text.
    public static func isForbiddenKey(ascii key: UnsafeRawBufferPointer) -> Bool {
        asciiForbiddenKey(key) ?? isForbiddenKey(String(decoding: key, as: UTF8.self))
    }

    /// Whether `key` is a forbidden key, compared in place folding ASCII case; nil when it
    /// holds a non-ASCII byte (Unicode lowercasing decides then).
    @inline(__always)
    private static func asciiForbiddenKey(_ key: some Collection<UInt8>) -> Bool? {
        let count = key.count
        // The forbidden keys are 3 to 22 ASCII letters.
        if count >= 3 && count <= 22 {
            candidates: for candidate in forbiddenKeyBytes where candidate.count == count {
                var index = 0
                for byte in key {
                    if byte >= 0x80 { return nil }
                    let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    if folded != candidate[index] { continue candidates }
                    index += 1
                }
                return true
            }
        }
        return key.contains(where: { $0 >= 0x80 }) ? nil : false
    }

    private static let forbiddenKeyBytes: [[UInt8]] = forbiddenKeys.map { Array($0.utf8) }

    // MARK: - Card numbers

    /// True when `text` (a JSON number's text) is an integer of 13 to 19 digits without sign.
    public static func isCardNumberInteger(_ text: String) -> Bool { isCardNumberInteger(digits: text.utf8) }

    /// `isCardNumberInteger(_:)` of a number's text read in place.
    public static func isCardNumberInteger(_ text: UnsafeRawBufferPointer) -> Bool { isCardNumberInteger(digits: text) }

    @inline(__always)
    private static func isCardNumberInteger(digits text: some Collection<UInt8>) -> Bool {
        let count = text.count
        guard count >= 13 && count <= 19 else { return false }
        return text.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// True when `string` holds a digit run that looks like a card number (see the type's doc).
    public static func containsCardNumber(_ string: String) -> Bool {
        // Fast path: fewer than 13 ASCII digits cannot hold a card number.
        guard hasCardNumberDigits(string.utf8) else { return false }
        if UUIDText.isUUID(string) { return false }
        let scalars = Array(string.unicodeScalars)
        var found = false
        forEachDigitRun(in: scalars) { run in
            let touchedBefore = run.start > 0 && isLetterOrDigit(scalars[run.start - 1])
            let touchedAfter = run.last + 1 < scalars.count && isLetterOrDigit(scalars[run.last + 1])
            if !touchedBefore && !touchedAfter && run.digits.count >= 13 && run.digits.count <= 19
                && passesLuhn(run.digits)
            {
                found = true
                return false
            }
            return true
        }
        return found
    }

    /// `containsCardNumber(_:)` of a string's UTF-8 bytes read in place: a string becomes text
    /// only when it holds enough digits to hold a card number.
    public static func containsCardNumber(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard hasCardNumberDigits(bytes) else { return false }
        return containsCardNumber(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `text` holds at least the 13 ASCII digits of the shortest card number.
    @inline(__always)
    private static func hasCardNumberDigits(_ text: some Collection<UInt8>) -> Bool {
        var digitCount = 0
        for byte in text where byte >= 0x30 && byte <= 0x39 { digitCount += 1 }
        return digitCount >= 13
    }

    /// A maximal run of ASCII digits in which single spaces or single dashes may stand between
    /// digits: the scalar indices of its first and last digit, and the digits' values.
    struct DigitRun {
        var start: Int
        var last: Int
        var digits: [UInt8]
    }

    /// Calls `body` with each digit run of `scalars`, left to right, until it returns false.
    /// `skip` marks scalars that belong to no run (they end one, like a letter).
    static func forEachDigitRun(
        in scalars: [Unicode.Scalar], skip: [Bool]? = nil,
        _ body: (DigitRun) -> Bool
    ) {
        func isDigit(_ index: Int) -> Bool { isASCIIDigit(scalars[index]) && !(skip?[index] ?? false) }
        var index = 0
        var run = DigitRun(start: 0, last: 0, digits: [])
        run.digits.reserveCapacity(32)
        while index < scalars.count {
            guard isDigit(index) else {
                index += 1
                continue
            }
            run.start = index
            run.last = index
            run.digits.removeAll(keepingCapacity: true)
            run.digits.append(UInt8(scalars[index].value - 0x30))
            var next = index + 1
            while next < scalars.count {
                let scalar = scalars[next]
                if isDigit(next) {
                    run.digits.append(UInt8(scalar.value - 0x30))
                    run.last = next
                    next += 1
                } else if (scalar == " " || scalar == "-") && next + 1 < scalars.count && isDigit(next + 1) {
                    next += 1
                } else {
                    break
                }
            }
            guard body(run) else { return }
            index = run.last + 1
        }
    }

    /// The Luhn check over decimal digit values (most significant first).
    public static func passesLuhn(_ digits: [UInt8]) -> Bool {
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() {
            var value = Int(digit)
            if offset % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }

    static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

    /// A letter (general category L*) or a decimal digit (Nd) of any script.
    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 {
            let value = scalar.value
            return (value >= 0x30 && value <= 0x39) || (value | 0x20 >= 0x61 && value | 0x20 <= 0x7A)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            return true
        default:
            return false
        }
    }
}

/// An event refused by ``SensitiveDataGuard``. Its message names the path, never the value.
public struct SensitiveDataViolation: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A key that names sensitive data (`otp`, `pan`, `cvv`, …).
        case forbiddenKey
        /// A value that looks like a card number.
        case cardNumber
    }

    public let kind: Kind
    /// Where it was found: `data.challenge.OTP`, `meta.items[2]`, `data["odd key"]`.
    public let path: String

    public var description: String {
        switch kind {
        case .forbiddenKey:
            return "sensitive data: \(path) is a forbidden key (OTPs, challenge entries, TAVs, cryptograms, "
                + "card numbers, security codes and push tokens are never stored)"
        case .cardNumber:
            return "sensitive data: \(path) holds a value that looks like a card number"
        }
    }
}
