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
        let day = Self.day(event.occurredAt)
        if day != cachedDay { cacheDay(day) }
        var id = event.id
        var stream = event.stream
        var type = event.type
        // The line is assembled in one temporary buffer and appended once: one growth check and
        // one copy instead of one per piece.
        // 79 bytes of keys, quotes and timestamp, then the values.
        let length =
            79 + id.utf8.count + stream.utf8.count + type.utf8.count + event.data.count
            + (event.meta.map { 8 + $0.count } ?? 0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            var line = LineBuilder(base: buffer.baseAddress!)
            line.put(#"{"id":""#)
            id.withUTF8 { line.put($0) }
            line.put(#"","stream":""#)
            stream.withUTF8 { line.put($0) }
            line.put(#"","type":""#)
            type.withUTF8 { line.put($0) }
            line.put(#"","occurredAt":""#)
            dayPrefix.withUnsafeBufferPointer { line.put($0) }
            line.putTime(event.occurredAt.millisecondsSinceEpoch - day * 86_400_000)
            line.put(#"","data":"#)
            event.data.withUnsafeBufferPointer { line.put($0) }
            if let meta = event.meta {
                line.put(#","meta":"#)
                meta.withUnsafeBufferPointer { line.put($0) }
            }
            line.put(UInt8(ascii: "}"))
            precondition(line.count <= length, "envelope length miscounted")
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: line.count))
        }
    }

    /// Writes bytes at a raw pointer into a buffer sized beforehand.
    private struct LineBuilder {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0

        mutating func put(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, bytes.count > 0 else { return }
            (base + count).update(from: source, count: bytes.count)
            count += bytes.count
        }

        mutating func put(_ literal: StaticString) {
            literal.withUTF8Buffer { put($0) }
        }

        /// `HH:MM:SS.sssZ` for a time of day in milliseconds.
        mutating func putTime(_ inDay: Int64) {
            let inDay = Int(inDay)
            let seconds = inDay / 1000
            let hours = seconds / 3600
            let minutes = seconds / 60 % 60
            let secs = seconds % 60
            let millis = inDay % 1000
            put(UInt8(0x30 + hours / 10))
            put(UInt8(0x30 + hours % 10))
            put(UInt8(ascii: ":"))
            put(UInt8(0x30 + minutes / 10))
            put(UInt8(0x30 + minutes % 10))
            put(UInt8(ascii: ":"))
            put(UInt8(0x30 + secs / 10))
            put(UInt8(0x30 + secs % 10))
            put(UInt8(ascii: "."))
            put(UInt8(0x30 + millis / 100))
            put(UInt8(0x30 + millis / 10 % 10))
            put(UInt8(0x30 + millis % 10))
            put(UInt8(ascii: "Z"))
        }
    }

    private static func day(_ timestamp: Timestamp) -> Int64 {
        let milliseconds = timestamp.millisecondsSinceEpoch
        return milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
    }

    private mutating func cacheDay(_ day: Int64) {
        cachedDay = day
        dayPrefix = Array(Timestamp(millisecondsSinceEpoch: day * 86_400_000).description.utf8.prefix(11))
    }

    /// The envelope format, `YYYY-MM-DDTHH:MM:SS.sssZ`, the same text as `Timestamp.description`.
    mutating func writeTimestamp(_ timestamp: Timestamp, into out: inout [UInt8]) {
        let day = Self.day(timestamp)
        if day != cachedDay { cacheDay(day) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var text = LineBuilder(base: buffer.baseAddress!)
            dayPrefix.withUnsafeBufferPointer { text.put($0) }
            text.putTime(timestamp.millisecondsSinceEpoch - day * 86_400_000)
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: text.count))
        }
    }
}
