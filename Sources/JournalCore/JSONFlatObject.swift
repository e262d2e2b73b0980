/// A JSON object whose members are all plain scalars, read in place from its bytes: the members'
/// places are found in one pass and a value becomes a ``JSONValue`` only when asked for, so no
/// tree is built for a document that is read a few fields at a time (a stored event's `data`).
///
/// The flat reading covers only what it can read exactly as ``JSONParser`` does: keys and string
/// values of ASCII characters without escapes, integers, `true`, `false` and `null`, at most
/// ``capacity`` members, no duplicate key. Anything else (a nested object or array, an escape, a
/// fraction or exponent, a non-ASCII byte, invalid JSON) is declined, and the caller parses the
/// document with ``JSONParser``, which accepts it or says why not. So a value read here is the
/// value the parser gives, and a document read here is one the parser accepts.
///
/// ```swift
/// let status = JSONFlatObject.withMembers(of: bytes) { members in members.value(forKey: "status") }
/// // nil: not flat (parse it); .some(nil): flat, no such key (or null)
/// ```
public struct JSONFlatObject {
    /// Where one member's key and value are in the document (half-open byte ranges).
    @usableFromInline
    struct Member {
        var keyStart: Int32
        var keyEnd: Int32
        var valueStart: Int32
        var valueEnd: Int32
        var kind: Kind
    }

    @usableFromInline
    enum Kind: UInt8 { case string, integer, `true`, `false`, null }

    /// The most members read flat; a larger object is declined.
    public static let capacity = 32

    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline let members: UnsafeBufferPointer<Member>

    @usableFromInline
    init(bytes: UnsafeRawBufferPointer, members: UnsafeBufferPointer<Member>) {
        self.bytes = bytes
        self.members = members
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Calls `body` with the members of the object `bytes` holds, when the flat reading covers it;
    /// returns nil without calling it when it does not (parse the bytes instead). The object is
    /// valid only inside `body`.
    @inlinable
    public static func withMembers<R, E: Error>(
        of bytes: UnsafeRawBufferPointer, _ body: (JSONFlatObject) throws(E) -> R
    ) throws(E) -> R? {
        // Offsets are kept in 32 bits: a larger document is declined (events are far smaller).
        guard bytes.count < Int(Int32.max) else { return nil }
        let found: Result<R, E>? = withUnsafeTemporaryAllocation(of: Member.self, capacity: capacity) { scratch in
            guard let count = scan(bytes, into: scratch) else { return nil }
            let object = JSONFlatObject(bytes: bytes, members: UnsafeBufferPointer(rebasing: scratch[..<count]))
            do throws(E) { return .success(try body(object)) } catch { return .failure(error) }
        }
        return try found?.get()
    }

    /// The value of `key`: nil when absent, `.null` when null.
    public func value(forKey key: String) -> JSONValue? {
        guard let index = index(forKey: key) else { return nil }
        return value(at: index)
    }

    /// The key of the member at `index` (in document order).
    public func key(at index: Int) -> String {
        let member = members[index]
        return text(Int(member.keyStart), Int(member.keyEnd))
    }

    /// The value of the member at `index` (in document order).
    public func value(at index: Int) -> JSONValue {
        let member = members[index]
        switch member.kind {
        case .string: return .string(text(Int(member.valueStart), Int(member.valueEnd)))
        case .integer:
            return .number(JSONNumber(uncheckedText: text(Int(member.valueStart), Int(member.valueEnd))))
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null: return .null
        }
    }

    /// The bytes of the key at `index` (ASCII, without quotes), in place: valid only while the
    /// object is.
    public func keyBytes(at index: Int) -> UnsafeRawBufferPointer {
        let member = members[index]
        return UnsafeRawBufferPointer(rebasing: bytes[Int(member.keyStart)..<Int(member.keyEnd)])
    }

    /// The bytes of the member at `index` when its value is a string (ASCII, without quotes),
    /// in place, else nil.
    public func stringBytes(at index: Int) -> UnsafeRawBufferPointer? {
        valueBytes(at: index, when: .string)
    }

    /// The text of the member at `index` when its value is an integer (`-` and digits), in
    /// place, else nil.
    public func integerBytes(at index: Int) -> UnsafeRawBufferPointer? {
        valueBytes(at: index, when: .integer)
    }

    private func valueBytes(at index: Int, when kind: Kind) -> UnsafeRawBufferPointer? {
        let member = members[index]
        guard member.kind == kind else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[Int(member.valueStart)..<Int(member.valueEnd)])
    }

    /// The members as a parsed object, in document order (what ``JSONParser`` gives).
    public var object: JSONObject {
        var object = JSONObject()
        for index in 0..<count { object[key(at: index)] = value(at: index) }
        return object
    }

    private func index(forKey key: String) -> Int? {
        var key = key
        return key.withUTF8 { wanted in
            for (index, member) in members.enumerated()
            where Int(member.keyEnd - member.keyStart) == wanted.count
                && Self.equal(bytes, from: Int(member.keyStart), UnsafeRawBufferPointer(wanted))
            {
                return index
            }
            return nil
        }
    }

    private func text(_ start: Int, _ end: Int) -> String {
        // ASCII by the scan: every byte sequence is valid UTF-8.
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The number of members found, or nil when the flat reading does not cover the document.
    @usableFromInline
    static func scan(_ bytes: UnsafeRawBufferPointer, into members: UnsafeMutableBufferPointer<Member>)
        -> Int?
    {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipWhitespace()
        var count = 0
        if !scanner.take(UInt8(ascii: "}")) {
            while true {
                guard count < members.count, let key = scanner.plainString() else { return nil }
                scanner.skipWhitespace()
                guard scanner.take(UInt8(ascii: ":")) else { return nil }
                scanner.skipWhitespace()
                guard let value = scanner.scalar() else { return nil }
                // The parser refuses a duplicate key: leave that to it.
                for earlier in members[..<count] where Self.sameKey(earlier, key, in: bytes) { return nil }
                members[count] = Member(
                    keyStart: Int32(key.lowerBound), keyEnd: Int32(key.upperBound),
                    valueStart: Int32(value.range.lowerBound), valueEnd: Int32(value.range.upperBound),
                    kind: value.kind)
                count += 1
                scanner.skipWhitespace()
                if scanner.take(UInt8(ascii: ",")) {
                    scanner.skipWhitespace()
                    continue
                }
                guard scanner.take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        scanner.skipWhitespace()
        return scanner.index == bytes.count ? count : nil
    }

    private static func sameKey(_ member: Member, _ key: Range<Int>, in bytes: UnsafeRawBufferPointer) -> Bool {
        Int(member.keyEnd - member.keyStart) == key.count
            && equal(bytes, from: Int(member.keyStart), UnsafeRawBufferPointer(rebasing: bytes[key]))
    }

    /// Whether `bytes` holds `other` from `start` on (the caller checks there is room).
    fileprivate static func equal(_ bytes: UnsafeRawBufferPointer, from start: Int, _ other: UnsafeRawBufferPointer)
        -> Bool
    {
        for offset in 0..<other.count where bytes[start + offset] != other[offset] { return false }
        return true
    }

    /// The flat object's own reads over the shared cursor.
    private typealias Scanner = JSONByteCursor
}

extension JSONByteCursor {
    fileprivate mutating func scalar() -> (range: Range<Int>, kind: JSONFlatObject.Kind)? {
        guard index < bytes.count else { return nil }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard let contents = plainString() else { return nil }
            return (contents, .string)
        case UInt8(ascii: "t"): return literal("true", .true)
        case UInt8(ascii: "f"): return literal("false", .false)
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = take(UInt8(ascii: "-"))
            let digits = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            let length = index - digits
            // At least one digit, no leading zero, and an integer the parser would take as
            // is: a fraction, an exponent or a very long number is its to judge.
            guard length > 0, length <= 40, bytes[digits] != UInt8(ascii: "0") || length == 1 else { return nil }
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
                default: break
                }
            }
            return (start..<index, .integer)
        default:
            return nil
        }
    }

    fileprivate mutating func literal(_ word: StaticString, _ kind: JSONFlatObject.Kind)
        -> (range: Range<Int>, kind: JSONFlatObject.Kind)?
    {
        let start = index
        let length = word.utf8CodeUnitCount
        guard bytes.count - index >= length,
            JSONFlatObject.equal(bytes, from: index, UnsafeRawBufferPointer(start: word.utf8Start, count: length))
        else { return nil }
        index += length
        return (start..<index, kind)
    }
}
