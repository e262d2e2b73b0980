import JournalCore

/// What both aggregates share: an initial state and one `apply` that either accepts an event
/// (the next state) or names the rule it breaks. `validate`, `evolve` and `fold` follow from it.
public protocol Aggregate {
    associatedtype State
    associatedtype Event

    static var initial: State { get }

    /// The state after `event`, or the rule it breaks in `state`.
    static func apply(_ state: State, _ event: Event, occurredAt: Timestamp) -> Result<State, Rejection>
}

extension Aggregate {
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
