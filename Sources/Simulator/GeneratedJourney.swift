import Domain
import JournalCore

/// One event produced by the generator, ready for the envelope.
public struct GeneratedEvent: Sendable, Equatable {
    /// Envelope `id`: a UUID from the seeded generator.
    public let id: String
    public let stream: String
    public let type: String
    public let data: JSONObject
    /// From the simulated device clock.
    public let occurredAt: Timestamp

    public init(id: String, stream: String, type: String, data: JSONObject, occurredAt: Timestamp) {
        self.id = id
        self.stream = stream
        self.type = type
        self.data = data
        self.occurredAt = occurredAt
    }
}

/// One stream's worth of legal events.
public struct GeneratedJourney: Sendable, Equatable {
    public let stream: String
    public let category: StreamCategory
    public let events: [GeneratedEvent]
    /// The final state after folding `events`.
    public let finalState: JourneyState
    /// The path taken, for coverage checks: notable steps in order (`ares:C`, `ui:04`, `resumed`, …).
    /// Empty when the generator does not record details (inside a ``Simulation``).
    public let path: [String]
    /// The commands that produced `events`, in order (each produced one or more events). Empty
    /// when the generator does not record details.
    public let commands: [GeneratedCommand]
}

/// A command the generator issued, of either category.
public enum GeneratedCommand: Sendable, Equatable {
    case threeDS(ThreeDSTransaction.Command)
    case card(CardDigitization.Command)
}
