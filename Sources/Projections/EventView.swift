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

    public init(position: Int64, stream: String, type: String, occurredAt: Int64, data: JSONObject) {
        self.position = position
        self.stream = stream
        self.type = type
        self.occurredAt = occurredAt
        self.data = data
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

    /// `3ds`, `card`, … : the stream name up to its first `-`.
    public var category: Substring { stream.prefix(while: { $0 != "-" }) }

    func string(_ key: String) -> String? { data[key]?.stringValue }
}
