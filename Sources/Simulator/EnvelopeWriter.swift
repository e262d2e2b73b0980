import JournalCore

/// Writes simulated events as NDJSON import envelopes, fast: the date part of timestamps is
/// formatted once per simulated day.
public struct EnvelopeWriter {
    private var cachedDay = Int64.min
    private var dayPrefix: [UInt8] = []

    public init() {}

    /// `{"id":…,"stream":…,"type":…,"occurredAt":…,"data":{…}[,"meta":{…}]}` without the line feed.
    /// Ids, stream names and types are generated ASCII without quotes or backslashes.
    public mutating func write(_ event: SimulatedEvent, into out: inout [UInt8]) {
        Self.append(#"{"id":""#, to: &out)
        Self.append(event.id, to: &out)
        Self.append(#"","stream":""#, to: &out)
        Self.append(event.stream, to: &out)
        Self.append(#"","type":""#, to: &out)
        Self.append(event.type, to: &out)
        Self.append(#"","occurredAt":""#, to: &out)
        writeTimestamp(event.occurredAt, into: &out)
        Self.append(#"","data":"#, to: &out)
        out.append(contentsOf: event.data)
        if let meta = event.meta {
            Self.append(#","meta":"#, to: &out)
            out.append(contentsOf: meta)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends a literal's bytes in one piece.
    @inline(__always)
    private static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 in one piece (native strings are contiguous).
    @inline(__always)
    private static func append(_ string: String, to out: inout [UInt8]) {
        if string.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: string.utf8)
        }
    }

    /// The envelope format, `YYYY-MM-DDTHH:MM:SS.sssZ`, the same text as `Timestamp.description`.
    mutating func writeTimestamp(_ timestamp: Timestamp, into out: inout [UInt8]) {
        let milliseconds = timestamp.millisecondsSinceEpoch
        let day = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        if day != cachedDay {
            cachedDay = day
            dayPrefix = Array(Timestamp(millisecondsSinceEpoch: day * 86_400_000).description.utf8.prefix(11))
        }
        out.append(contentsOf: dayPrefix)
        let inDay = Int(milliseconds - day * 86_400_000)
        let seconds = inDay / 1000
        let hours = seconds / 3600, minutes = seconds / 60 % 60, secs = seconds % 60, millis = inDay % 1000
        // HH:MM:SS.sssZ, 13 bytes, written in place.
        let text: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            UInt8(0x30 + hours / 10), UInt8(0x30 + hours % 10), UInt8(ascii: ":"),
            UInt8(0x30 + minutes / 10), UInt8(0x30 + minutes % 10), UInt8(ascii: ":"),
            UInt8(0x30 + secs / 10), UInt8(0x30 + secs % 10), UInt8(ascii: "."),
            UInt8(0x30 + millis / 100), UInt8(0x30 + millis / 10 % 10), UInt8(0x30 + millis % 10), UInt8(ascii: "Z"))
        withUnsafeBytes(of: text) { out.append(contentsOf: $0) }
    }
}
