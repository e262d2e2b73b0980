import JournalCore

/// One PostgreSQL session on a journal, with its caches: the engine behind `PostgresEventStore`
/// (one for the writer, one for readers). Not thread-safe; the store serializes every use.
///
/// ## Why positions are gapless and commit-ordered
/// PostgreSQL sequences are not transactional: two writers can take positions 7 and 8, 8 commits
/// first, and a reader that saw 8 moves its checkpoint past 7, which commits a moment later and is
/// never read (a known trap of event stores on sequences). This store has no sequence. Every write transaction starts
/// with `SELECT … FROM journal_head FOR UPDATE`: the single head row is the journal's append lock.
/// Holding it, the writer reads the last committed position and hash (READ COMMITTED re-reads the
/// newest row version after waiting), assigns `head + 1, head + 2, …` itself, moves the head and
/// commits; the row lock is released only after the commit is visible. Hence at every instant
/// the committed positions are exactly `1…head`: a transaction can neither skip a position (it
/// starts from the committed head) nor become visible before an earlier one (the earlier one
/// committed before the lock was granted). Writers in any number of processes queue on the lock;
/// within one process, group commit shares one transaction between concurrent appends.
/// Stream and type ids are assigned the same way (max + 1 under the lock).
final class PostgresJournal {
    let pg: PostgresConnection
    let configuration: PostgresEventStore.Configuration
    let hasher: ChainHasher
    /// The schema holding the journal (the first of the session's search_path).
    let schema: String
    /// The LISTEN/NOTIFY channel of this journal.
    var channel: String { PostgresCommitListener.channel(schema: schema) }

    // Committed facts, safe to cache across transactions and processes.
    var streamIDs: [String: Int64] = [:]
    var typeIDs: [String: Int64] = [:]
    var dictionaries: [Int64: LZ4Dictionary] = [:]
    var dictionaryTrainingSkipped = false

    /// False for a journal of schema version 1 opened read-only: it has no Merkle tree to verify.
    var hasTree = true
    /// False for a journal of schema version 2 or older opened read-only: it records no stream
    /// ends (`StreamEnd`) for reads and `verify` to hold the events to.
    var hasStreamEnds = true

    /// Present while this session holds the append lock.
    var write: WriteState?

    var payloadScratch: [UInt8] = []
    var compressScratch: [UInt8] = []

    /// What the open write transaction knows and has not committed. A value: a failed append
    /// restores the copy taken before it.
    struct WriteState {
        var headPosition: Int64
        var headHash: [UInt8]
        var nextStreamID: Int64
        var nextTypeID: Int64
        /// Types with a smaller id were committed before this transaction.
        var firstNewTypeID: Int64
        var dictionaryID: Int64?
        var trainedDictionary = false
        /// Streams known in this transaction (looked up or created): id, and last version.
        var streams: [String: (id: Int64?, version: Int64?)] = [:]
        /// The new ends of the streams this transaction appended to, by stream id, which its
        /// commit records in `journal_streams`.
        var ends: [Int64: StreamEnd] = [:]
        var newStreams: [String: Int64] = [:]
        var newTypes: [String: Int64] = [:]
        /// Events known to be stored (looked up, or appended in this transaction), by id.
        var stored: [String: RecordedEvent] = [:]
        /// Ids known not to be stored.
        var absent: Set<String> = []
        /// Statements not yet sent to the server (names, dictionaries), then the event rows.
        var pending: [PostgresStatement] = []
        var pendingRows = PostgresEventRows()
        var written = 0
        /// The tree's partial edge tiles as the transaction began (by level; read with the head,
        /// under the append lock), and the leaf hashes of the events it appended since.
        var treeEdge: [Int: [UInt8]] = [:]
        var leafHashes: [UInt8] = []
    }

    static let previousHashColumn = ", (SELECT p.hash FROM journal_events p WHERE p.position = e.position - 1)"
    static let columns = """
        e.position, s.name, e.version, e.event_id, t.name, e.occurred_at, e.recorded_at, e.codec, e.data_len, \
        e.meta_len, e.payload, e.hash, e.stream_id
        """
    /// A query for whole events: `inner` selects the `journal_events` rows (its own WHERE, ORDER
    /// BY and LIMIT, so the planner uses the position, stream or id index and never joins more
    /// than the page), then the names are joined in and the page is ordered by `order`.
    /// `checked`: a 14th column holds the stored hash of the event at the previous position, for
    /// `ChainLinkCheck` (NULL at position 1).
    static func events(_ inner: String, order: String = "e.position", checked: Bool = false) -> String {
        """
        SELECT \(columns)\(checked ? previousHashColumn : "") FROM (\(inner)) e LEFT JOIN \
        journal_streams s ON s.id = e.stream_id \
        LEFT JOIN journal_types t ON t.id = e.type_id ORDER BY \(order)
        """
    }

    init(url: String, configuration: PostgresEventStore.Configuration, writer: Bool) throws(EventStoreError) {
        self.configuration = configuration
        hasher = ChainHasher()
        do {
            pg = try PostgresConnection(url)
            if configuration.readOnly { try pg.execute("SET default_transaction_read_only = on") }
            if writer {
                try pg.execute(
                    "SET synchronous_commit = \(configuration.synchronousCommit ? "on" : "off"); "
                        + "SET lock_timeout = \(max(configuration.lockTimeoutMilliseconds, 1))")
            }
            let current = try pg.query("SELECT current_schema()")
            schema = current.rowCount == 1 && !current.isNull(0, 0) ? current.text(0, 0) : "public"
        } catch {
            if error.sqlState == "3D000" {
                throw EventStoreError(
                    code: .missing, message: "no journal at \(PostgresURL.redacted(url)): \(error.message)",
                    backendCode: error.sqlState)
            }
            throw EventStoreError(postgres: error, doing: "connecting")
        }
        payloadScratch.reserveCapacity(4096)
        compressScratch.reserveCapacity(4096)
    }

    /// Runs libpq calls, turning their failures into store errors that say what was being done.
    @inline(__always)
    func run<R>(
        _ what: @autoclosure () -> String, stream: StreamName? = nil,
        _ body: () throws(PostgresError) -> R
    ) throws(EventStoreError) -> R {
        do {
            return try body()
        } catch {
            throw EventStoreError(postgres: error, doing: what(), stream: stream?.rawValue)
        }
    }

    func forgetCaches() {
        streamIDs.removeAll()
        typeIDs.removeAll()
        dictionaries.removeAll()
        dictionaryTrainingSkipped = false
    }

    /// A dictionary by id (from the cache, or loaded).
    func dictionary(_ id: Int64) throws(EventStoreError) -> LZ4Dictionary {
        if let dictionary = dictionaries[id] { return dictionary }
        let result = try run("loading dictionary #\(id)") { () throws(PostgresError) in
            try pg.query("SELECT content FROM journal_dictionaries WHERE id = $1 AND codec = 'lz4'", [.int64(id)])
        }
        guard result.rowCount == 1 else {
            throw EventStoreError(code: .integrity, message: "compression dictionary #\(id) is missing")
        }
        let dictionary = LZ4Dictionary(id: id, content: result.bytes(0, 0))
        dictionaries[id] = dictionary
        return dictionary
    }

    // MARK: - Write transactions

    /// `BEGIN`, then the append lock (the head row) and the id counters, plus lookups of the
    /// streams and event ids the caller is about to append: one round trip.
    func beginWrite(streams: [String] = [], ids: [String] = []) throws(EventStoreError) {
        precondition(write == nil, "nested write transaction")
        if configuration.readOnly {
            throw EventStoreError(code: .readOnly, message: "\(pg.location) is open read-only: appends are refused")
        }
        var statements = [
            PostgresStatement("BEGIN"),
            PostgresStatement("SELECT position, hash FROM journal_head WHERE singleton = 1 FOR UPDATE"),
            PostgresStatement(
                """
                SELECT (SELECT coalesce(max(id), 0) FROM journal_streams), (SELECT \
                coalesce(max(id), 0) FROM journal_types),
                       (SELECT max(id) FROM journal_dictionaries)
                """),
            PostgresStatement(Self.treeEdgeQuery)
        ]
        let lookups = lookupStatements(streams: streams, ids: ids)
        statements += lookups.statements
        do {
            let results = try pg.pipeline(statements)
            guard results.count == statements.count, results[1].rowCount == 1 else {
                throw EventStoreError(code: .notAJournal, message: "\(pg.location): the journal head row is missing")
            }
            var state = WriteState(
                headPosition: results[1].int64(0, 0), headHash: results[1].bytes(0, 1),
                nextStreamID: results[2].int64(0, 0) + 1, nextTypeID: results[2].int64(0, 1) + 1,
                firstNewTypeID: results[2].int64(0, 1) + 1,
                dictionaryID: results[2].optionalInt64(0, 2))
            for row in 0..<results[3].rowCount {
                state.treeEdge[Int(results[3].int64(row, 0))] = results[3].bytes(row, 1)
            }
            try absorbLookups(Array(results[4...]), lookups, into: &state)
            write = state
        } catch let error as PostgresError {
            pg.rollback()
            throw EventStoreError(postgres: error, doing: "starting a write transaction on \(pg.location)")
        } catch let error as EventStoreError {
            pg.rollback()
            throw error
        } catch {
            pg.rollback()
            throw EventStoreError(code: .io, message: "\(error)")
        }
    }

    /// Sends the pending statements (inside the open transaction). A failure aborts the whole
    /// transaction: it is rolled back and `write` becomes nil.
    func flush() throws(EventStoreError) {
        guard var state = write, !state.pending.isEmpty || !state.pendingRows.isEmpty else { return }
        let statements = state.pending + state.pendingRows.statements(chunk: configuration.pipelineChunk)
        state.pending.removeAll()
        state.pendingRows = PostgresEventRows()
        write = state
        do {
            try send(statements)
        } catch {
            rollbackWrite()
            throw EventStoreError(postgres: error, doing: "appending to \(pg.location)")
        }
    }

    /// Sends statements in pipelines of at most `pipelineChunk`.
    private func send(_ statements: [PostgresStatement]) throws(PostgresError) {
        var start = 0
        while start < statements.count {
            let end = min(start + configuration.pipelineChunk, statements.count)
            _ = try pg.pipeline(Array(statements[start..<end]))
            start = end
        }
    }

    /// Sends what is pending, moves the head, notifies listeners and commits, in one pipeline
    /// (a few for big commits). Only then are the new names published to the caches.
    func commitWrite() throws(EventStoreError) {
        guard let state = write else { return }
        guard state.written > 0 else {
            rollbackWrite()
            return
        }
        var statements = state.pending + state.pendingRows.statements(chunk: configuration.pipelineChunk)
        do {
            statements += try treeStatements(state)
        } catch {
            rollbackWrite()
            throw error
        }
        if !state.ends.isEmpty {
            let ids = state.ends.keys.sorted()
            statements.append(
                PostgresStatement(
                    PostgresEventStore.recordStreamEndsSQL,
                    [
                        .int64Array(ids), .int64Array(ids.map { state.ends[$0]?.version }),
                        .int64Array(ids.map { state.ends[$0]?.position })
                    ]))
        }
        statements.append(
            PostgresStatement(
                "UPDATE journal_head SET position = $1, hash = $2 WHERE singleton = 1",
                [.int64(state.headPosition), .bytea(state.headHash)]))
        statements.append(
            PostgresStatement("SELECT pg_notify($1, $2)", [.text(channel), .text(String(state.headPosition))]))
        statements.append(PostgresStatement("COMMIT"))
        do {
            try send(statements)
        } catch {
            rollbackWrite()
            if error.sqlState == "08006" || error.sqlState == nil {
                throw EventStoreError(
                    code: .io,
                    message:
                        "committing to \(pg.location): \(error.message) (the connection failed during the commit: "
                        + "check the head before retrying; a retried append is idempotent)",
                    backendCode: error.sqlState)
            }
            throw EventStoreError(postgres: error, doing: "committing to \(pg.location)")
        }
        write = nil
        for (name, id) in state.newStreams { streamIDs[name] = id }
        for (name, id) in state.newTypes { typeIDs[name] = id }
    }

    /// Rolls back (releasing the append lock) and forgets what the transaction learned.
    func rollbackWrite() {
        if let state = write, state.trainedDictionary, let id = state.dictionaryID {
            dictionaries.removeValue(forKey: id)
        }
        pg.rollback()
        write = nil
    }

    // MARK: - Lookups

    struct Lookups {
        var streams: [String] = []
        var ids: [String] = []
        var statements: [PostgresStatement] = []
    }

    /// Statements that look up stream names (id, last version) and event ids not yet known to
    /// the open transaction.
    func lookupStatements(streams: [String], ids: [String], known: WriteState? = nil) -> Lookups {
        var lookups = Lookups()
        var seenStreams = Set<String>()
        for name in streams where known?.streams[name] == nil && seenStreams.insert(name).inserted {
            lookups.streams.append(name)
        }
        var seenIDs = Set<String>()
        for id in ids
        where known?.stored[id] == nil && !(known?.absent.contains(id) ?? false)
            && seenIDs.insert(id).inserted
        {
            lookups.ids.append(id)
        }
        if !lookups.streams.isEmpty {
            lookups.statements.append(
                PostgresStatement(
                    """
                    SELECT s.name, s.id, (SELECT max(e.version) FROM journal_events e WHERE e.stream_id = s.id)
                    FROM journal_streams s WHERE s.name = ANY($1)
                    """, [.textArray(lookups.streams)], prepared: false))
        }
        if !lookups.ids.isEmpty {
            lookups.statements.append(
                PostgresStatement(
                    Self.events("SELECT * FROM journal_events WHERE event_id = ANY($1)"),
                    [.byteaArray(lookups.ids.map(Self.storedID))], prepared: false))
        }
        return lookups
    }

    func absorbLookups(_ results: [PostgresResult], _ lookups: Lookups, into state: inout WriteState)
        throws(EventStoreError)
    {
        var index = 0
        if !lookups.streams.isEmpty {
            let rows = results[index]
            index += 1
            for name in lookups.streams { state.streams[name] = (nil, nil) }
            for row in 0..<rows.rowCount {
                let name = rows.text(row, 0)
                let id = rows.int64(row, 1)
                state.streams[name] = (id, rows.optionalInt64(row, 2))
                if state.newStreams[name] == nil { streamIDs[name] = id }
            }
        }
        if !lookups.ids.isEmpty {
            let rows = results[index]
            for id in lookups.ids { state.absent.insert(id) }
            for row in 0..<rows.rowCount {
                let event = try decode(rows, row)
                state.absent.remove(event.id)
                state.stored[event.id] = event
            }
        }
    }

    /// Looks up, in one round trip, whatever of `streams` and `ids` the open transaction does not
    /// know yet.
    func ensureKnown(streams: [String], ids: [String]) throws(EventStoreError) {
        guard let lookups = write.map({ lookupStatements(streams: streams, ids: ids, known: $0) }),
            !lookups.statements.isEmpty
        else { return }
        try flush()
        let results: [PostgresResult]
        do {
            results = try pg.pipeline(lookups.statements)
        } catch {
            rollbackWrite()
            throw EventStoreError(postgres: error, doing: "looking up streams and event ids")
        }
        guard var state = write else { return }
        write = nil // `state` owns the buffers: absorbing the rows does not copy them
        defer { write = state }
        try absorbLookups(results, lookups, into: &state)
    }

    /// How an event id is stored: 16 bytes for a lowercase canonical UUID, else its UTF-8 text.
    static func storedID(_ id: String) -> [UInt8] {
        EventIDCoding.packed(id) ?? Array(id.utf8)
    }
}

@available(*, unavailable, message: "a journal session is used by one thread at a time")
extension PostgresJournal: Sendable {}
