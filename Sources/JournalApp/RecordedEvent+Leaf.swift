import EventStore
import JournalCore

extension RecordedEvent {
    /// The event a checked leaf line (an export line) describes: what `replay --bundle` folds.
    package init(leaf object: JSONObject) throws(CLIError) {
        func text(_ key: String) throws(CLIError) -> String {
            guard let value = object[key]?.stringValue else {
                throw CLIError(.integrity, "a bundle event has no \(key)")
            }
            return value
        }
        func integer(_ key: String) throws(CLIError) -> Int64 {
            guard let value = object[key]?.numberValue?.int64 else {
                throw CLIError(.integrity, "a bundle event has no \(key)")
            }
            return value
        }
        func time(_ key: String) throws(CLIError) -> Timestamp {
            guard let value = Timestamp(try text(key)) else {
                throw CLIError(.integrity, "a bundle event's \(key) is not a timestamp")
            }
            return value
        }
        guard let stream = try? StreamName(try text("stream")) else {
            throw CLIError(.integrity, "a bundle event's stream is not a stream name")
        }
        guard case let .object(data)? = object["data"] else {
            throw CLIError(.integrity, "a bundle event has no data object")
        }
        var dataBytes: [UInt8] = []
        JSONWriter.write(data, into: &dataBytes)
        var metaBytes: [UInt8]?
        if case let .object(meta)? = object["meta"] {
            var bytes: [UInt8] = []
            JSONWriter.write(meta, into: &bytes)
            metaBytes = bytes
        }
        self.init(
            position: try integer("position"), stream: stream, version: try integer("version"), id: try text("id"),
            type: try text("type"), occurredAt: try time("occurredAt"), recordedAt: try time("recordedAt"),
            data: dataBytes, meta: metaBytes, hash: Hex.bytes(try text("hash")))
    }
}
