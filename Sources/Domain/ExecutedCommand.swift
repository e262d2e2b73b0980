/// What a command did: the events it produced and the state after them.
///
/// `decide` returns the events only; `execute` returns both, for a caller that keeps the state
/// (the simulator) and would otherwise apply every event a second time.
public struct ExecutedCommand<State, Event: Sendable & Equatable> {
    /// The new events, in order (empty when the command had already taken effect).
    public let events: [NewEvent<Event>]
    /// The state after `events`.
    public let state: State

    public init(events: [NewEvent<Event>], state: State) {
        self.events = events
        self.state = state
    }
}

extension ExecutedCommand: Sendable where State: Sendable {}
extension ExecutedCommand: Equatable where State: Equatable {}
