import Domain
import EventStore
import JournalCore

/// What `journal find` looks for: every field set must match (AND); nil matches anything.
public struct StreamFilter: Sendable, Equatable {
    /// On the stream's start: the occurredAt of its first event.
    public var window: QueryWindow
    /// `3ds` or `card` (``categoryNames``).
    public var category: String?
    /// A name of ``StreamOutcome/names``: an outcome, `open` (every stream not ended), or the
    /// state an open stream is in.
    public var outcome: String?
    public var directoryServer: String?
    public var serverTransID: String?
    public var acsTransID: String?
    public var digitalCardID: String?
    /// Matches a stream when any of its events carries it as `meta.correlationId`.
    public var correlationID: String?

    /// The stream categories (spec §1).
    public static let categoryNames = StreamCategory.allCases.map(\.rawValue)

    public init(
        window: QueryWindow = .all, category: String? = nil, outcome: String? = nil,
        directoryServer: String? = nil, serverTransID: String? = nil, acsTransID: String? = nil,
        digitalCardID: String? = nil, correlationID: String? = nil
    ) {
        self.window = window
        self.category = category
        self.outcome = outcome
        self.directoryServer = directoryServer
        self.serverTransID = serverTransID
        self.acsTransID = acsTransID
        self.digitalCardID = digitalCardID
        self.correlationID = correlationID
    }
}

/// One stream `journal find` found.
public struct FoundStream: Sendable, Equatable {
    public var stream: String
    public var startedAt: Timestamp
    /// A name of ``StreamOutcome/names`` (never `open`: an open stream shows its state).
    public var outcome: String
    public var events: Int64

    public init(stream: String, startedAt: Timestamp, outcome: String, events: Int64) {
        self.stream = stream
        self.startedAt = startedAt
        self.outcome = outcome
        self.events = events
    }
}

/// The streams that match, in start order, at most the limit asked for.
public struct FindResult: Sendable, Equatable {
    public var streams: [FoundStream]
    /// True when more streams match than were returned.
    public var truncated: Bool
}

extension ProjectionEngine {
    /// The streams that match `filter`, ordered by start time then stream name, at most
    /// `limit` of them: from the `streams` read model (caught up first), never by scanning
    /// the log.
    public func find(_ filter: StreamFilter, limit: Int) throws(ProjectionError) -> FindResult {
        precondition(limit > 0, "find needs a positive limit")
        return try snapshot([.streams]) { () throws(ProjectionError) -> FindResult in
            try findInSnapshot(filter, limit: limit, generation: generation(.streams))
        }
    }

    private enum Bound {
        case int(Int64)
        case text(String)
    }

    /// A matching row of the streams table: the columns it is read from, and its decoding.
    private struct Found {
        static let columns = "sid, name, start_t, outcome, events"

        var sid: Int64
        var name: String
        var startedAt: Int64
        var outcome: String
        var events: Int64

        /// The current row of a statement that selects ``columns``.
        init(_ st: Statement) {
            sid = st.int(0)
            name = st.text(1)
            startedAt = st.int(2)
            outcome = st.text(3)
            events = st.int(4)
        }
    }

    private func findInSnapshot(_ filter: StreamFilter, limit: Int, generation g: Int64) throws(ProjectionError)
        -> FindResult
    {
        let table = StreamsProjection.streamTable(g)
        var conditions: [String] = []
        var binds: [Bound] = []
        func equal(_ column: String, _ value: String?) {
            guard let value else { return }
            conditions.append("\(column) = \(db.sql.p(binds.count + 1))")
            binds.append(.text(value))
        }
        if let since = filter.window.since {
            conditions.append("start_t >= \(db.sql.p(binds.count + 1))")
            binds.append(.int(since.millisecondsSinceEpoch))
        }
        if let until = filter.window.until {
            conditions.append("start_t < \(db.sql.p(binds.count + 1))")
            binds.append(.int(until.millisecondsSinceEpoch))
        }
        equal("category", filter.category)
        if let outcome = filter.outcome {
            // `terminal = 0` lets the open streams' partial index serve an open state too.
            if outcome == StreamOutcome.openName {
                conditions.append("terminal = 0")
            } else if StreamOutcome.openStateNames.contains(outcome) {
                conditions.append("terminal = 0")
                equal("outcome", outcome)
            } else {
                equal("outcome", outcome)
            }
        }
        equal("ds", filter.directoryServer)
        equal("sti", filter.serverTransID)
        equal("ati", filter.acsTransID)
        equal("dci", filter.digitalCardID)
        if let correlation = filter.correlationID {
            let cid = db.sql.p(binds.count + 1)
            conditions.append("sid IN (SELECT sid FROM \(StreamsProjection.correlationTable(g)) WHERE cid = \(cid))")
            binds.append(.text(correlation))
        }
        let base = "SELECT \(Found.columns) FROM \(table)"
        // Parameters are numbered in the order they are bound: the filter's, the tie's, the limit.
        func rows(_ extra: String?, order: String, limit: Int?, extraBind: Int64? = nil) throws(ProjectionError)
            -> [Found]
        {
            let all = conditions + (extra.map { [$0] } ?? [])
            var sql = base + (all.isEmpty ? "" : " WHERE " + all.joined(separator: " AND ")) + " ORDER BY " + order
            if limit != nil { sql += " LIMIT \(db.sql.p(binds.count + (extraBind == nil ? 1 : 2)))" }
            let st = try db.statement(sql)
            var index: Int32 = 1
            for bind in binds {
                switch bind {
                case let .int(value): st.bind(index, value)
                case let .text(value): st.bind(index, value)
                }
                index += 1
            }
            if let extraBind {
                st.bind(index, extraBind)
                index += 1
            }
            if let limit { st.bind(index, Int64(limit)) }
            defer { st.reset() }
            var found: [Found] = []
            while try st.step() { found.append(Found(st)) }
            return found
        }
        // The index order is (start, sid); names order the streams that start in the same
        // millisecond. When the limit cuts through such a tie, every stream of that
        // millisecond is read, so that the ones kept are the first by name.
        var found = try rows(nil, order: "start_t, sid", limit: limit + 1)
        let truncated = found.count > limit
        if truncated {
            let boundary = found[limit].startedAt
            found.removeAll { $0.startedAt >= boundary }
            let tie = "start_t = \(db.sql.p(binds.count + 1))"
            var ties = try rows(tie, order: "sid", limit: nil, extraBind: boundary)
            try name(&ties)
            ties.sort { $0.name < $1.name }
            found += ties.prefix(limit - found.count)
        }
        try name(&found)
        found.sort { ($0.startedAt, $0.name) < ($1.startedAt, $1.name) }
        return FindResult(
            streams: found.map {
                FoundStream(
                    stream: $0.name, startedAt: Timestamp(millisecondsSinceEpoch: $0.startedAt), outcome: $0.outcome,
                    events: $0.events)
            }, truncated: truncated)
    }

    /// Fills in the names of rows keyed by the store's stream id (their rows keep none).
    private func name(_ rows: inout [Found]) throws(ProjectionError) {
        for index in rows.indices where rows[index].name.isEmpty {
            guard let scanner = source.scanner else {
                throw ProjectionError(.database, "streams read model: row \(rows[index].sid) has no stream name")
            }
            do {
                rows[index].name = try scanner.streamName(id: rows[index].sid)
            } catch {
                throw ProjectionError(.eventStore, "cannot read the name of stream #\(rows[index].sid): \(error)")
            }
        }
    }
}
