import EventStore
import JournalCore

/// Builds a log by hand: events get consecutive positions and per-stream versions.
struct LogBuilder {
    private(set) var events: [RecordedEvent] = []
    private var versions: [String: Int64] = [:]

    /// Appends one event; `data` is the JSON object text, `at` an envelope timestamp.
    mutating func add(_ stream: String, _ type: String, at: String, _ data: String = "{}") {
        guard let occurredAt = Timestamp(at) else { fatalError("bad timestamp in test: \(at)") } // test input
        add(stream, type, ms: occurredAt.millisecondsSinceEpoch, data)
    }

    mutating func add(_ stream: String, _ type: String, ms: Int64, _ data: String = "{}") {
        let version = versions[stream, default: -1] + 1
        versions[stream] = version
        let position = Int64(events.count + 1)
        // Test streams are always well-formed names.
        let name = try! StreamName(stream)
        events.append(
            RecordedEvent(
                position: position, stream: name, version: version,
                id: "00000000-0000-4000-8000-\(String(position, radix: 16).leftPadded(12))",
                type: type, occurredAt: Timestamp(millisecondsSinceEpoch: ms),
                recordedAt: Timestamp(millisecondsSinceEpoch: ms), data: Array(data.utf8),
                meta: nil, hash: []))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
