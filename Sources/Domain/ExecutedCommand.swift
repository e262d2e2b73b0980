/// What a command did: the events it produced and the state after them.
///
/// `decide` returns the events only; `execute` returns both, for a caller that keeps the state
/// (the simulator) and would otherwise apply every event a second time. A command produces at
/// most two events (a final challenge response and the event that ends the challenge), held
/// inline: reading them with ``count`` and ``subscript(_:)`` allocates nothing.
public struct ExecutedCommand<State, Event: Sendable & Equatable> {
    /// The state after the new events.
    public let state: State
    /// The number of new events (0, 1 or 2).
    public let count: Int
    private let first: NewEvent<Event>?
    private let second: NewEvent<Event>?

    /// No new event: the command had already taken effect.
    public init(state: State) {
        self.state = state
        count = 0
        first = nil
        second = nil
    }

    /// One or two new events, in order.
    public init(state: State, _ first: NewEvent<Event>, _ second: NewEvent<Event>? = nil) {
        self.state = state
        count = second == nil ? 1 : 2
        self.first = first
        self.second = second
    }

    /// The new event at `index` (0 or 1, below ``count``).
    public subscript(_ index: Int) -> NewEvent<Event> {
        precondition(index >= 0 && index < count, "no new event at index \(index)")
        return index == 0 ? first.unsafelyUnwrapped : second.unsafelyUnwrapped
    }

    /// The new events, in order.
    public var events: [NewEvent<Event>] {
        switch (first, second) {
        case let (first?, second?): return [first, second]
        case let (first?, nil): return [first]
        case (nil, _): return []
        }
    }
}

extension ExecutedCommand: Sendable where State: Sendable {}
extension ExecutedCommand: Equatable where State: Equatable {}
