import EventStore
import JournalCore

/// The few things a projection reads from a recorded event: where it is in the log, its stream,
/// its type, when it happened, and its `data` object. Built once per event and shared by every
/// projection that folds it.
public struct EventView: Sendable, Equatable {
    public var position: Int64
    public var stream: String
    public var type: String
    /// occurredAt, in milliseconds since the epoch.
    public var occurredAt: Int64
    public var data: JSONObject
    /// The stream's category, read once.
    public let category: Category

    public enum Category: Sendable, Equatable {
        case threeDS, card, other
    }

    public init(position: Int64, stream: String, type: String, occurredAt: Int64, data: JSONObject) {
        self.position = position
        self.stream = stream
        self.type = type
        self.occurredAt = occurredAt
        self.data = data
        var utf8 = stream.utf8.makeIterator()
        let a = utf8.next(), b = utf8.next(), c = utf8.next(), d = utf8.next(), e = utf8.next()
        if a == UInt8(ascii: "3"), b == UInt8(ascii: "d"), c == UInt8(ascii: "s"), d == UInt8(ascii: "-") {
            category = .threeDS
        } else if a == UInt8(ascii: "c"), b == UInt8(ascii: "a"), c == UInt8(ascii: "r"), d == UInt8(ascii: "d"),
                  e == UInt8(ascii: "-") {
            category = .card
        } else {
            category = .other
        }
    }

    /// Reads a stored event. The store only holds validated events, so a `data` that is not a JSON
    /// object is a damaged journal: it is reported, never trapped on.
    public init(_ event: RecordedEvent) throws(ProjectionError) {
        let value: JSONValue
        do {
            value = try JSONParser().parse(event.data)
        } catch {
            throw ProjectionError(.badEvent, "event at position \(event.position): data is not JSON (\(error))",
                                  position: event.position)
        }
        guard case let .object(object) = value else {
            throw ProjectionError(.badEvent, "event at position \(event.position): data is not a JSON object",
                                  position: event.position)
        }
        self.init(position: event.position, stream: event.stream.rawValue, type: event.type,
                  occurredAt: event.occurredAt.millisecondsSinceEpoch, data: object)
    }

    func string(_ key: String) -> String? { data[key]?.stringValue }
}
