import JournalCore

/// A `journal-bundle/1` document: one stream's events with their inclusion proofs against one
/// signed checkpoint, checkable and replayable without the journal (``BundleVerifier``).
///
///     {"format": "journal-bundle/1", "stream": S, "checkpoint": "<signed note>",
///      "events": [{"position": P, "leaf": "<leaf line>", "proof": ["<base64>", …]}, …]}
///
/// Events are in version order. Readers ignore keys they do not know (later versions of the
/// format may add some).
public struct EvidenceBundle: Sendable, Equatable {
    /// The value of the `format` key.
    public static let format = "journal-bundle/1"

    /// One event: its position, its leaf line (the export line) and its inclusion proof.
    public struct Event: Sendable, Equatable {
        public var position: Int64
        /// The event's leaf line: the `journal export` line, without the line feed.
        public var leaf: String
        /// The inclusion proof of entry `position − 1` in the checkpoint's tree.
        public var proof: [[UInt8]]

        public init(position: Int64, leaf: String, proof: [[UInt8]]) {
            self.position = position
            self.leaf = leaf
            self.proof = proof
        }
    }

    public var stream: String
    /// The signed checkpoint note, verbatim.
    public var checkpoint: String
    public var events: [Event]

    public init(stream: String, checkpoint: String, events: [Event]) {
        self.stream = stream
        self.checkpoint = checkpoint
        self.events = events
    }

    /// The bundle as a JSON value, keys in the documented order.
    public var json: JSONValue {
        let events = events.map { event -> JSONValue in
            .object(
                JSONObject([
                    ("position", .number(JSONNumber(event.position))),
                    ("leaf", .string(event.leaf)),
                    ("proof", .array(event.proof.map { .string(Base64.encode($0)) }))
                ]))
        }
        return .object(
            JSONObject([
                ("format", .string(Self.format)),
                ("stream", .string(stream)),
                ("checkpoint", .string(checkpoint)),
                ("events", .array(events))
            ]))
    }

    /// The bundle as compact JSON text (no line feed at the end).
    public var jsonText: String { JSONWriter.string(json) }

    /// Decodes a bundle document. Errors name the JSON path of the bad value.
    public init(decoding bytes: some Collection<UInt8>) throws(BundleError) {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw .invalidJSON(error.description)
        }
        guard let object = value.objectValue else { throw .wrongType(path: "$", expected: "an object") }
        let format = try Self.string(object, "format", path: "format")
        guard format == Self.format else { throw .unknownFormat(format) }
        let stream = try Self.string(object, "stream", path: "stream")
        let checkpoint = try Self.string(object, "checkpoint", path: "checkpoint")
        guard let eventsValue = object["events"] else { throw .missingKey(path: "events") }
        guard let events = eventsValue.arrayValue else { throw .wrongType(path: "events", expected: "an array") }
        var decoded: [Event] = []
        decoded.reserveCapacity(events.count)
        for (index, value) in events.enumerated() {
            let path = "events[\(index)]"
            guard let event = value.objectValue else { throw .wrongType(path: path, expected: "an object") }
            guard let positionValue = event["position"] else { throw .missingKey(path: "\(path).position") }
            guard let position = positionValue.numberValue?.int64 else {
                throw .wrongType(path: "\(path).position", expected: "an integer")
            }
            let leaf = try Self.string(event, "leaf", path: "\(path).leaf")
            guard let proofValue = event["proof"] else { throw .missingKey(path: "\(path).proof") }
            guard let proofArray = proofValue.arrayValue else {
                throw .wrongType(path: "\(path).proof", expected: "an array")
            }
            var proof: [[UInt8]] = []
            for (hashIndex, hashValue) in proofArray.enumerated() {
                guard let text = hashValue.stringValue, let hash = Base64.decode(text) else {
                    throw .wrongType(path: "\(path).proof[\(hashIndex)]", expected: "a base64 string")
                }
                proof.append(hash)
            }
            decoded.append(Event(position: position, leaf: leaf, proof: proof))
        }
        self.init(stream: stream, checkpoint: checkpoint, events: decoded)
    }

    private static func string(_ object: JSONObject, _ key: String, path: String) throws(BundleError) -> String {
        guard let value = object[key] else { throw .missingKey(path: path) }
        guard let string = value.stringValue else { throw .wrongType(path: path, expected: "a string") }
        return string
    }
}
