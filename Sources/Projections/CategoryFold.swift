/// The fold of a category read model (``ThreeDSFold``, ``CardFold``): pure, one event at a time,
/// onto the stream's row, emitting facts (``StreamFact``) and changes to the all-time totals.
///
/// A fold says how an event changes its stream's row and which facts it counts, what each fact
/// adds to the totals, and what a stream adds to them in its current state; moving that
/// contribution when the stream changes is done here, the same way for every category.
public protocol CategoryFold {
    associatedtype Row
    associatedtype FactKind: RawRepresentable & Sendable & Equatable where FactKind.RawValue == Int64

    /// Applies `event` to its stream's row and appends the facts it counts.
    static func apply(_ event: EventView, to row: inout Row, facts: inout [StreamFact<FactKind>])
    /// Counts one fact an event appended (`row` as it stands after that event).
    static func count(_ fact: StreamFact<FactKind>, of row: Row, in totals: inout TotalsDelta)
    /// Adds (`sign` 1) or takes out (−1) what a stream adds to the totals in its current state.
    static func contribute(_ row: Row, sign: Int64, to totals: inout TotalsDelta)
    /// False when what the stream adds to the totals is the same for `before` and `row`.
    static func contributionMayDiffer(_ before: Row, _ row: Row) -> Bool
}

extension CategoryFold {
    /// Applies `event` and counts it: its facts, and the stream's contribution moved when it
    /// changed.
    public static func apply(
        _ event: EventView, to row: inout Row, facts: inout [StreamFact<FactKind>], totals: inout TotalsDelta
    ) {
        let before = row
        applyCountingEvents(event, to: &row, facts: &facts, totals: &totals)
        if contributionMayDiffer(before, row) {
            contribute(before, sign: -1, to: &totals)
            contribute(row, sign: 1, to: &totals)
        }
    }

    /// ``apply(_:to:facts:totals:)`` without moving the stream's contribution: the caller takes
    /// it out before the stream's first event of a batch and puts it back after its last (the
    /// moves in between cancel out).
    public static func applyCountingEvents(
        _ event: EventView, to row: inout Row, facts: inout [StreamFact<FactKind>], totals: inout TotalsDelta
    ) {
        let factCount = facts.count
        apply(event, to: &row, facts: &facts)
        for fact in facts[factCount...] { count(fact, of: row, in: &totals) }
    }
}
