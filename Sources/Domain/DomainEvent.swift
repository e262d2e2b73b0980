import JournalCore

/// Any event of the catalog, whatever its stream category.
public enum DomainEvent: Sendable, Equatable {
    case threeDS(ThreeDSEvent)
    case card(CardEvent)

    /// Decodes an event of any category from its envelope `type` and `data`.
    ///
    /// - Throws: ``EventDecodingError``; kind `.unknownType` when `type` is in neither category.
    public static func decode(type: String, data: JSONObject) throws(EventDecodingError) -> DomainEvent {
        if let category = category(ofType: type) {
            switch category {
            case .threeDS: return .threeDS(try ThreeDSEvent.decode(type: type, data: data))
            case .card: return .card(try CardEvent.decode(type: type, data: data))
            }
        }
        throw EventDecodingError.unknownType(type)
    }

    /// Decodes an event that must belong to `category`.
    ///
    /// - Throws: ``EventDecodingError`` of kind `.unknownType` when `type` is not an event type of
    ///   that category (the message says which category it belongs to, if any).
    public static func decode(type: String, data: JSONObject, in category: StreamCategory)
        throws(EventDecodingError) -> DomainEvent
    {
        switch category {
        case .threeDS:
            do { return .threeDS(try ThreeDSEvent.decode(type: type, data: data)) } catch {
                throw categoryAware(error, type: type, category: category)
            }
        case .card:
            do { return .card(try CardEvent.decode(type: type, data: data)) } catch {
                throw categoryAware(error, type: type, category: category)
            }
        }
    }

    /// The category an event type belongs to, nil for a type outside the catalog.
    public static func category(ofType type: String) -> StreamCategory? {
        EventType(name: type)?.category
    }

    /// The event's type name as written in the envelope.
    public var typeName: String {
        switch self {
        case let .threeDS(event): return event.typeName
        case let .card(event): return event.typeName
        }
    }

    /// The envelope's `data` object: the received object for a decoded event.
    public var data: JSONObject {
        switch self {
        case let .threeDS(event): return event.data
        case let .card(event): return event.data
        }
    }

    /// The stream category the event belongs to.
    public var category: StreamCategory {
        switch self {
        case .threeDS: return .threeDS
        case .card: return .card
        }
    }
}
