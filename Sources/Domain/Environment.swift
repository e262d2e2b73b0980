import JournalCore

/// What a decision may read from the outside world: a clock and an ID generator, injected so
/// that `decide` stays pure and a replay with the same environment gives the same events.
///
/// The domain never calls `Date()`, a random source or `UUID()`. Tests and the simulator pass a
/// simulated clock and a seeded generator; the CLI passes the real ones.
public struct Environment {
    /// The current time, used as the new events' `occurredAt` (read once per decision).
    public var now: () -> Timestamp
    /// A new event id (UUID text), called once per new event.
    public var newID: () -> String

    public init(now: @escaping () -> Timestamp, newID: @escaping () -> String) {
        self.now = now
        self.newID = newID
    }
}

/// An event produced by a decision, with the envelope values the environment gave it.
public struct NewEvent<Event: Sendable & Equatable>: Sendable, Equatable {
    /// The envelope `id` (idempotency key), from ``Environment/newID``.
    public let id: String
    /// The envelope `occurredAt`, from ``Environment/now``.
    public let occurredAt: Timestamp
    public let event: Event

    public init(id: String, occurredAt: Timestamp, event: Event) {
        self.id = id
        self.occurredAt = occurredAt
        self.event = event
    }
}

extension Rejection {
    /// A command whose event data breaks the catalog.
    init(_ error: EventDecodingError) {
        self.init(.catalog, error.message)
    }
}
