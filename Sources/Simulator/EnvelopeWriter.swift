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
        out.append(contentsOf: #"{"id":""#.utf8)
        out.append(contentsOf: event.id.utf8)
        out.append(contentsOf: #"","stream":""#.utf8)
        out.append(contentsOf: event.stream.utf8)
        out.append(contentsOf: #"","type":""#.utf8)
        out.append(contentsOf: event.type.utf8)
        out.append(contentsOf: #"","occurredAt":""#.utf8)
        writeTimestamp(event.occurredAt, into: &out)
        out.append(contentsOf: #"","data":"#.utf8)
        out.append(contentsOf: event.data)
        if let meta = event.meta {
            out.append(contentsOf: #","meta":"#.utf8)
            out.append(contentsOf: meta)
        }
        out.append(UInt8(ascii: "}"))
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
        func two(_ value: Int) {
            out.append(UInt8(0x30 + value / 10))
            out.append(UInt8(0x30 + value % 10))
        }
        let seconds = inDay / 1000
        two(seconds / 3600)
        out.append(UInt8(ascii: ":"))
        two(seconds / 60 % 60)
        out.append(UInt8(ascii: ":"))
        two(seconds % 60)
        out.append(UInt8(ascii: "."))
        let millis = inDay % 1000
        out.append(UInt8(0x30 + millis / 100))
        two(millis % 100)
        out.append(UInt8(ascii: "Z"))
    }
}
