/// The key of a windowed report's rows, decoded by name: a query selects ``columns`` first,
/// then the values it counts, and ``ProjectionEngine``'s `summed` adds the values up per key
/// (in a hash table: SQLite's `GROUP BY` sorts every row through a temporary B-tree). Each type
/// says which columns it reads and decodes them in one place, as `find`'s and `rates`' rows do.
/// A text column that is NULL reads as `unknown`.
protocol GroupedRow: Hashable {
    /// The key's columns, in the order `init` reads them.
    static var columns: String { get }
    /// How many columns ``columns`` selects (the counted values follow them).
    static var columnCount: Int32 { get }
    /// The key of a statement's current row.
    init(_ st: Statement)
}

extension Statement {
    /// A text column of a grouped row: `unknown` when NULL.
    fileprivate func label(_ column: Int32) -> String { optionalText(column) ?? "unknown" }
}

/// A fact's label (column `a`): the request type, method, reason, UI type or error code, as
/// the fact's kind (in the query) says.
struct FactLabel: GroupedRow {
    static let columns = "a"
    static let columnCount: Int32 = 1
    var label: String
    init(_ st: Statement) { label = st.label(0) }
}

/// A stream's outcome code (3DS or card, `OutcomeKey(code:)`).
struct StreamOutcomeCode: GroupedRow {
    static let columns = "outcome"
    static let columnCount: Int32 = 1
    var code: Int64
    init(_ st: Statement) { code = st.int(0) }
}

/// A card journey that is activated, or not.
struct JourneyActivation: GroupedRow {
    static let columns = "outcome = 1"
    static let columnCount: Int32 = 1
    var activated: Bool
    init(_ st: Statement) { activated = st.int(0) == 1 }
}

/// A card fact's kind (`CardFact.Kind`).
struct CardFactOfKind: GroupedRow {
    static let columns = "kind"
    static let columnCount: Int32 = 1
    var kind: Int64
    init(_ st: Statement) { kind = st.int(0) }
}

/// A challenge that timed out: its transaction's directory server (`s`) and its UI type (the
/// fact's `a`).
struct ChallengeTimeout: GroupedRow {
    static let columns = "s.ds, f.a"
    static let columnCount: Int32 = 2
    var directoryServer: String
    var uiType: String
    init(_ st: Statement) {
        directoryServer = st.label(0)
        uiType = st.label(1)
    }
}

/// A challenge request: its UI type (`b`) and what it asked (`a`).
struct ChallengeRequest: GroupedRow {
    static let columns = "b, a"
    static let columnCount: Int32 = 2
    var uiType: String
    var request: String
    init(_ st: Statement) {
        uiType = st.label(0)
        request = st.label(1)
    }
}

/// A challenge that ended: its last UI type (`none` without one) and its transaction's outcome.
struct EndedChallenge: GroupedRow {
    static let columns = "coalesce(last_ui, 'none'), outcome"
    static let columnCount: Int32 = 2
    var uiType: String
    var outcome: Int64
    init(_ st: Statement) {
        uiType = st.label(0)
        outcome = st.int(1)
    }
}

/// A 3DS transaction as the funnel counts it.
struct FunnelEntry: GroupedRow {
    static let columns = "ds, mv, coalesce(ares, ''), started_t IS NOT NULL, outcome"
    static let columnCount: Int32 = 5
    var directoryServer: String
    var messageVersion: String
    var ares: String
    var challenged: Bool
    var outcome: Int64
    init(_ st: Statement) {
        directoryServer = st.label(0)
        messageVersion = st.label(1)
        ares = st.label(2)
        challenged = st.int(3) == 1
        outcome = st.int(4)
    }
}

/// A protocol error: its code (`a`) and the component that sent it (`b`).
struct ProtocolErrorFact: GroupedRow {
    static let columns = "a, b"
    static let columnCount: Int32 = 2
    var code: String
    var component: String
    init(_ st: Statement) {
        code = st.label(0)
        component = st.label(1)
    }
}

/// An ID&V fact: its method (`a`), its detail (`b`: `reselected` for a selection made again)
/// and its kind (`CardFact.Kind`).
struct IDVFact: GroupedRow {
    static let columns = "a, b, kind"
    static let columnCount: Int32 = 3
    var method: String
    var detail: String
    var kind: Int64
    init(_ st: Statement) {
        method = st.label(0)
        detail = st.label(1)
        kind = st.int(2)
    }
}

/// A duration and the group it belongs to (a directory server, a method): the latency lists.
struct GroupedDuration {
    var group: String
    var milliseconds: Int64
    init(_ st: Statement) {
        group = st.label(0)
        milliseconds = st.int(1)
    }
}
