import Domain
import EventStore
import JournalCore

/// The few things a projection reads from a recorded event: where it is in the log, its stream,
/// its type, when it happened, and a few fields of its `data` object. Built once per event by the
/// engine's reader (no allocation per event) and shared by every projection that folds it.
///
/// `stream` is the reader's integer key for the stream (the store's stream id when the source
/// can scan); the name is asked of the reader only when a projection meets a stream it has no
/// row for. `data` points into the batch that holds the event and is only valid while the
/// batch is being applied. Fields are read straight from the stored JSON text by
/// ``JSONFieldScanner`` (no tree is built).
public struct EventView {
    public var position: Int64
    /// The reader's key of the stream.
    public var stream: Int64
    /// The catalog type; nil for a type outside the catalog.
    public var kind: EventType?
    /// The stream's category; nil for a stream name of neither category.
    public var category: StreamCategory?
    /// occurredAt, in milliseconds since the epoch.
    public var occurredAt: Int64
    /// The `data` object as stored (compact JSON text); empty for kinds no fold reads fields of.
    public var data: UnsafeBufferPointer<UInt8>
    /// The `meta` object as stored (compact JSON text); empty when the event has none.
    public var meta = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    /// The string value of a top-level field of `data` (nil when absent or not a string).
    func string(_ key: StaticString) -> String? { JSONFieldScanner.string(key, in: data) }

    /// Two top-level string fields, read in one pass (see ``JSONFieldScanner/strings(_:_:in:)``).
    func strings(_ first: StaticString, _ second: StaticString) -> (String?, String?) {
        JSONFieldScanner.strings(first, second, in: data)
    }

    /// The string value of a top-level field of `meta` (nil when absent or not a string).
    func metaString(_ key: StaticString) -> String? {
        meta.isEmpty ? nil : JSONFieldScanner.string(key, in: meta)
    }

    /// The whole `data` object, parsed (for the rare event whose fields are nested).
    func object() -> JSONObject? { (try? JSONParser().parse(data))?.objectValue }
}

/// Finds top-level string fields in a JSON object's text without building a tree. Bounds-checked:
/// malformed text gives nil, never a trap; a string with escapes is decoded by `JSONParser`.
enum JSONFieldScanner {
    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    static func isObject(_ bytes: [UInt8]) -> Bool {
        var i = 0
        skipSpace(bytes, &i)
        return i < bytes.count && bytes[i] == UInt8(ascii: "{")
    }

    static func isObject(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: "{")
    }

    static func string(_ key: StaticString, in bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { b -> String? in string(key, in: b) }
    }

    static func string(_ key: StaticString, in b: UnsafeBufferPointer<UInt8>) -> String? {
        fields(key, nil, in: b).0
    }

    /// Two top-level string fields in one pass over the object: the same as two calls of
    /// ``string(_:in:)`` (the first occurrence of each key; nil when absent, not a string, or
    /// when the text is malformed before it).
    static func strings(
        _ first: StaticString, _ second: StaticString,
        in b: UnsafeBufferPointer<UInt8>
    ) -> (String?, String?) {
        fields(first, second, in: b)
    }

    private static func fields(
        _ first: StaticString, _ second: StaticString?,
        in b: UnsafeBufferPointer<UInt8>
    ) -> (String?, String?) {
        let firstKey = UnsafeBufferPointer(start: first.utf8Start, count: first.utf8CodeUnitCount)
        let secondKey = second.map { UnsafeBufferPointer(start: $0.utf8Start, count: $0.utf8CodeUnitCount) }
        var found: (String?, String?) = (nil, nil)
        // A key is looked for until met (its first occurrence decides, as for one key alone).
        var wantFirst = true
        var wantSecond = secondKey != nil
        func matches(_ key: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
            guard end - start == key.count else { return false }
            for k in 0..<key.count where b[start + k] != key[k] { return false }
            return true
        }
        /// The string value at `i` (moving past it), nil when it is not a string.
        func value(_ i: inout Int) -> String? {
            guard b[i] == quote, let (start, end, escaped) = stringSpan(b, &i) else { return nil }
            if !escaped { return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self) }
            return (try? JSONParser().parse(UnsafeBufferPointer(rebasing: b[(start - 1)...end])))?.stringValue
        }
        var i = 0
        skipSpace(b, &i)
        guard i < b.count, b[i] == UInt8(ascii: "{") else { return found }
        i += 1
        while wantFirst || wantSecond {
            skipSpace(b, &i)
            guard i < b.count, b[i] == quote else { return found }
            guard let (keyStart, keyEnd, keyEscaped) = stringSpan(b, &i) else { return found }
            skipSpace(b, &i)
            guard i < b.count, b[i] == UInt8(ascii: ":") else { return found }
            i += 1
            skipSpace(b, &i)
            guard i < b.count else { return found }
            if !keyEscaped && wantFirst && matches(firstKey, keyStart, keyEnd) {
                wantFirst = false
                let start = i
                found.0 = value(&i)
                // A value that is not a string ends the search for this key; skip it.
                if found.0 == nil {
                    i = start
                    guard skipValue(b, &i) else { return found }
                }
            } else if !keyEscaped && wantSecond, let secondKey, matches(secondKey, keyStart, keyEnd) {
                wantSecond = false
                let start = i
                found.1 = value(&i)
                if found.1 == nil {
                    i = start
                    guard skipValue(b, &i) else { return found }
                }
            } else {
                guard skipValue(b, &i) else { return found }
            }
            skipSpace(b, &i)
            guard i < b.count else { return found }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            return found // `}`: not found
        }
        return found
    }

    private static func skipSpace<C: RandomAccessCollection>(_ b: C, _ i: inout Int)
    where C.Element == UInt8, C.Index == Int {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    /// At a `"`: moves past the closing quote; returns the content's range and whether it has escapes.
    ///
    /// `memchr` finds the next quote, then a backslash before it (an escape: the byte after it is
    /// skipped and the search goes on): the same walk as byte by byte, with a fraction of the
    /// instructions on the payloads' long values (ids, names).
    private static func stringSpan(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> (Int, Int, Bool)? {
        i += 1
        let start = i
        var escaped = false
        guard let base = b.baseAddress else { return nil }
        while i < b.count {
            guard let q = Memory.firstIndex(of: quote, in: base + i, count: b.count - i) else { return nil }
            let end = i + q
            if end > i, let e = Memory.firstIndex(of: backslash, in: base + i, count: end - i) {
                escaped = true
                i += e + 2
                continue
            }
            i = end + 1
            return (start, end, escaped)
        }
        return nil
    }

    /// Skips one value (string, object, array, number, literal).
    private static func skipValue(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        guard i < b.count else { return false }
        switch b[i] {
        case quote:
            return stringSpan(b, &i) != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while i < b.count {
                switch b[i] {
                case quote:
                    guard stringSpan(b, &i) != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        i += 1
                        return true
                    }
                default:
                    break
                }
                i += 1
            }
            return false
        default:
            while i < b.count, b[i] != UInt8(ascii: ","), b[i] != UInt8(ascii: "}"), b[i] != UInt8(ascii: "]"),
                b[i] != 0x20, b[i] != 0x0A, b[i] != 0x0D, b[i] != 0x09
            { i += 1 }
            return true
        }
    }
}
