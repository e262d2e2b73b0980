import JournalCore

/// The aggregate of one stream, whatever its category: the single entry point for folding a
/// stream event by event (import, `journal state`, `journal replay`, projections).
///
/// ```swift
/// var state = try JourneyState.initial(for: "3ds-0b9e…")
/// for event in events {
///     try state.apply(type: event.type, data: event.data, occurredAt: event.occurredAt)
/// }
/// print(state.textSummary)
/// ```
///
/// `apply` decodes the `data` (catalog rules, spec §3), checks the state rules (first
/// event, order, counters, terminal states…) and evolves; on failure the state is unchanged.
/// The sensitive-data guard is separate (``SensitiveDataGuard``) because it also reads `meta`.
public enum JourneyState: Sendable, Equatable {
    case threeDS(ThreeDSTransaction.State)
    case card(CardDigitization.State)

    /// The empty state of the stream's category.
    ///
    /// - Throws: ``StreamCategoryError`` when the name breaks spec §1 (`3ds-<lowercase UUID>`,
    ///   `card-<UUID>`).
    public static func initial(for stream: String) throws(StreamCategoryError) -> JourneyState {
        initial(for: try StreamCategory.of(stream: stream))
    }

    /// The empty state of `category`.
    public static func initial(for category: StreamCategory) -> JourneyState {
        switch category {
        case .threeDS: return .threeDS(ThreeDSTransaction.initial)
        case .card: return .card(CardDigitization.initial)
        }
    }

    /// The stream category of this state.
    public var category: StreamCategory {
        switch self {
        case .threeDS: return .threeDS
        case .card: return .card
        }
    }

    /// Decodes, validates and applies one event.
    ///
    /// - Throws: ``DomainRejection``: `.invalidData` when the type or data breaks the catalog,
    ///   `.ruleBroken` when the event is not allowed in the current state. The state is unchanged.
    public mutating func apply(type: String, data: JSONObject, occurredAt: Timestamp) throws(DomainRejection) {
        try apply(type: type, FieldReader(type, data), occurredAt: occurredAt)
    }

    /// ``apply(type:data:occurredAt:)`` of a `data` object read in place from its stored bytes:
    /// the same decoding, rules and outcome as for the object ``JSONParser`` makes of the bytes,
    /// without the tree. The event is folded and dropped: nothing keeps its `data`.
    ///
    /// A `3ds` event goes straight from the bytes to the values its state rules read
    /// (``ThreeDSEvent/Step``), without a payload of every field; only one the catalog refuses
    /// is decoded in full, which says why.
    public mutating func apply(type: String, flatData: JSONFlatObject, occurredAt: Timestamp)
        throws(DomainRejection)
    {
        if case let .threeDS(state) = self, let known = EventType(name: type),
            let step = ThreeDSEvent.Step(type: known, flat: flatData)
        {
            switch ThreeDSTransaction.apply(state, step, occurredAt: occurredAt) {
            case let .success(next): self = .threeDS(next)
            case let .failure(rejection): throw .ruleBroken(rejection)
            }
            return
        }
        try apply(type: type, FieldReader(type, flat: flatData), occurredAt: occurredAt)
    }

    private mutating func apply(type: String, _ r: FieldReader, occurredAt: Timestamp) throws(DomainRejection) {
        switch self {
        case let .threeDS(state):
            let event: ThreeDSEvent
            do { event = try ThreeDSEvent.decode(type: type, r) } catch {
                throw .invalidData(DomainEvent.categoryAware(error, type: type, category: .threeDS))
            }
            switch ThreeDSTransaction.apply(state, event, occurredAt: occurredAt) {
            case let .success(next): self = .threeDS(next)
            case let .failure(rejection): throw .ruleBroken(rejection)
            }
        case let .card(state):
            let event: CardEvent
            do { event = try CardEvent.decode(type: type, r) } catch {
                throw .invalidData(DomainEvent.categoryAware(error, type: type, category: .card))
            }
            switch CardDigitization.apply(state, event, occurredAt: occurredAt) {
            case let .success(next): self = .card(next)
            case let .failure(rejection): throw .ruleBroken(rejection)
            }
        }
    }

    /// Validates and applies an already decoded event.
    ///
    /// - Throws: ``DomainRejection/ruleBroken(_:)``, with rule `catalog` when the event belongs
    ///   to the other category.
    public mutating func apply(_ event: DomainEvent, occurredAt: Timestamp) throws(DomainRejection) {
        switch (self, event) {
        case let (.threeDS(state), .threeDS(event)):
            switch ThreeDSTransaction.apply(state, event, occurredAt: occurredAt) {
            case let .success(next): self = .threeDS(next)
            case let .failure(rejection): throw .ruleBroken(rejection)
            }
        case let (.card(state), .card(event)):
            switch CardDigitization.apply(state, event, occurredAt: occurredAt) {
            case let .success(next): self = .card(next)
            case let .failure(rejection): throw .ruleBroken(rejection)
            }
        case (.threeDS, .card), (.card, .threeDS):
            throw .ruleBroken(
                Rejection(
                    .catalog,
                    "\(event.typeName) is a \(event.category.rawValue) event, not "
                        + "allowed in a \(category.rawValue) stream"))
        }
    }

    /// The state after the event, or why it is refused; `self` is not changed.
    public func applying(type: String, data: JSONObject, occurredAt: Timestamp) -> Result<JourneyState, DomainRejection>
    {
        var copy = self
        do {
            try copy.apply(type: type, data: data, occurredAt: occurredAt)
            return .success(copy)
        } catch {
            return .failure(error)
        }
    }
}

/// Why ``JourneyState/apply(type:data:occurredAt:)`` refused an event.
public enum DomainRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The type is not in the stream category's catalog, or a field breaks its rule.
    case invalidData(EventDecodingError)
    /// The event is well formed but not allowed in the stream's current state.
    case ruleBroken(Rejection)

    /// The rule identifier: `catalog` for invalid data, else the state rule's identifier.
    public var rule: Rejection.Rule {
        switch self {
        case .invalidData: return .catalog
        case let .ruleBroken(rejection): return rejection.rule
        }
    }

    /// The human reason, e.g. `ChallengeStarted.timeoutSeconds must be >= 300, got 299`.
    public var reason: String {
        switch self {
        case let .invalidData(error): return error.message
        case let .ruleBroken(rejection): return rejection.reason
        }
    }

    public var description: String { reason }
}

extension DomainEvent {
    /// Rewrites an unknown-type error for a type that exists in the other category.
    static func categoryAware(_ error: EventDecodingError, type: String, category: StreamCategory)
        -> EventDecodingError
    {
        guard error.kind == .unknownType, let other = Self.category(ofType: type), other != category else {
            return error
        }
        return EventDecodingError(
            kind: .unknownType, eventType: type, field: nil,
            rule: "is a \(other.rawValue) event, not allowed in a \(category.rawValue) stream")
    }
}
