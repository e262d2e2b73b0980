import JournalCore

/// The two stream categories of spec §1 and the naming rule of each.
///
/// - `3ds-<sdkTransID>`: the id is a lowercase UUID.
/// - `card-<digitizationID>`: the id is a UUID in either letter case.
public enum StreamCategory: String, Sendable, Hashable, CaseIterable {
    case threeDS = "3ds"
    case card = "card"

    /// The category of `stream`, after checking the id rule of that category.
    ///
    /// - Throws: ``StreamCategoryError`` when the category is unknown or the id breaks its rule.
    public static func of(stream: String) throws(StreamCategoryError) -> StreamCategory {
        var name = stream
        // One pass over the bytes: this runs once per stream on import and replay.
        let verdict: Result<StreamCategory, StreamCategoryError> = name.withUTF8 { bytes in
            if bytes.starts(with: "3ds-".utf8) {
                guard UUIDText.isUUID(bytes, from: 4, lowercaseOnly: true) else {
                    return .failure(
                        StreamCategoryError(stream: stream, reason: "a 3ds stream's id must be a lowercase UUID"))
                }
                return .success(.threeDS)
            }
            if bytes.starts(with: "card-".utf8) {
                guard UUIDText.isUUID(bytes, from: 5, lowercaseOnly: false) else {
                    return .failure(StreamCategoryError(stream: stream, reason: "a card stream's id must be a UUID"))
                }
                return .success(.card)
            }
            return .failure(StreamCategoryError(stream: stream, reason: "the stream's category must be 3ds or card"))
        }
        return try verdict.get()
    }

    /// The category the prefix of `stream` names (`3ds-`, `card-`), nil for neither, without
    /// checking the id: for names the journal checked when their streams were written.
    public init?(prefixOf stream: String) {
        var utf8 = stream.utf8.makeIterator()
        let a = utf8.next()
        let b = utf8.next()
        let c = utf8.next()
        let d = utf8.next()
        let e = utf8.next()
        if a == UInt8(ascii: "3"), b == UInt8(ascii: "d"), c == UInt8(ascii: "s"), d == UInt8(ascii: "-") {
            self = .threeDS
        } else if a == UInt8(ascii: "c"), b == UInt8(ascii: "a"), c == UInt8(ascii: "r"), d == UInt8(ascii: "d"),
            e == UInt8(ascii: "-")
        {
            self = .card
        } else {
            return nil
        }
    }

    /// The event type every stream of this category must begin with.
    public var firstEventType: String {
        switch self {
        case .threeDS: return EventType.transactionCreated.name
        case .card: return EventType.eligibilityChecked.name
        }
    }
}

/// A stream name that does not follow spec §1.
public struct StreamCategoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream name as received.
    public let stream: String
    public let reason: String
    public var description: String { "invalid stream name: \(reason)" }
}
