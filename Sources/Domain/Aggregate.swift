import JournalCore

/// What both aggregates share: an initial state and one `apply` that either accepts an event
/// (the next state) or names the rule it breaks. `validate`, `evolve` and `fold` follow from it,
/// and `decide` from `execute`.
public protocol Aggregate {
    associatedtype State
    associatedtype Event: Sendable, Equatable
    associatedtype Command

    static var initial: State { get }

    /// The state after `event`, or the rule it breaks in `state`.
    static func apply(_ state: State, _ event: Event, occurredAt: Timestamp) -> Result<State, Rejection>

    /// Runs `command` against `state`: every event it means is checked with the catalog and the
    /// state rules, then handed to `emit` in order (nothing on a rejection), and `state` moved
    /// on past them (unchanged on a rejection). Returns nil, or the rule the command breaks.
    static func execute(
        _ command: Command, _ state: inout State, _ environment: Environment,
        _ emit: (NewEvent<Event>) -> Void
    ) -> Rejection?
}

extension Aggregate {
    /// The events `command` means in `state`, or the rule it breaks: ``execute(_:_:_:_:)`` for a
    /// caller that does not keep the state.
    public static func decide(_ command: Command, _ state: State, _ environment: Environment)
        -> Result<[NewEvent<Event>], Rejection>
    {
        var state = state
        var events: [NewEvent<Event>] = []
        if let rejection = execute(command, &state, environment, { events.append($0) }) { return .failure(rejection) }
        return .success(events)
    }

    /// The rule `event` breaks in `state`, or nil when it is allowed.
    public static func validate(_ state: State, _ event: Event, occurredAt: Timestamp) -> Rejection? {
        if case let .failure(rejection) = apply(state, event, occurredAt: occurredAt) { return rejection }
        return nil
    }

    /// The state after `event`. An event that breaks a rule leaves the state unchanged: validate
    /// first (or use `apply`).
    public static func evolve(_ state: State, _ event: Event, occurredAt: Timestamp) -> State {
        switch apply(state, event, occurredAt: occurredAt) {
        case let .success(next): return next
        case .failure: return state
        }
    }

    /// Folds events from `initial`, stopping at the first rejection.
    public static func fold<S: Sequence>(_ events: S) -> Result<State, Rejection>
    where S.Element == (event: Event, occurredAt: Timestamp) {
        var state = initial
        for (event, occurredAt) in events {
            switch apply(state, event, occurredAt: occurredAt) {
            case let .success(next): state = next
            case let .failure(rejection): return .failure(rejection)
            }
        }
        return .success(state)
    }
}
