import Domain

/// The `3ds` read model: one row per `3ds` stream (updated in place, so a stream's final
/// outcome is always current) and one fact row per counted event, indexed by kind and occurredAt.
///
/// Tables of generation G:
/// - `pj_3ds_stream_gG(sid PK, name, nh (its hash, indexed), created_t, ds, mv, ares, started_t, outcome, ended_t,
///   requests, submits, last_ui, sub_first_t, sub_last_t)`; covering indexes from `created_t` (the funnel's
///   columns) and from `ended_t` (those of challenges and latency).
/// - `pj_3ds_fact_gG(kind, t, sid, a, b, seq)`, `WITHOUT ROWID`, keyed `(kind, t, a, b, sid, seq)`.
/// - the all-time totals (``TotalsTables``, prefix `pj_3ds`).
final class ThreeDSProjection: CategoryModel {
    let name = "3ds"
    /// 2: covering fact index. 3: totals folded by structured keys, stream rows upserted.
    /// 4: covering indexes on created_t and ended_t for windowed funnel, challenges and latency.
    /// 5: counters and challenge durations per time bucket (minute, 10 minutes, hour, day).
    /// 6: earliest and latest submitText per stream; `otptx` placed at the earliest.
    /// 7: submission times per stream and the long-span table (`otp` windows).
    /// 8: duration lists per 10 minutes too.
    /// 9: the stream-name index is on a 64-bit hash of the name (`nh`), not on the text.
    /// 10: a store's stream id is the row's sid (no name index at the swap); `ended` partial;
    ///     facts clustered on `(kind, t, a, b, sid, seq)` (no fact index); no histogram over all
    ///     directory servers (summed from theirs at query time).
    /// 11: the histogram over all directory servers is stored again (the sum at query time was
    ///     too slow for the query-time goal on large journals).
    var version: Int64 = 11
    var generation: Int64 = 0
    var directory = StreamRowDirectory<ThreeDSStreamRow>()

    typealias Fold = ThreeDSFold

    static let tablePrefix = "pj_3ds"
    static let factsHaveValues = false

    static func streamColumnDefinitions(_ sql: ReadModelSQL) -> String {
        let (int, text) = (sql.integer, sql.text)
        return """
            created_t \(int),
              ds \(text), mv \(text), ares \(text), started_t \(int), outcome \(int) NOT NULL, ended_t \(int),
              requests \(int) NOT NULL, submits \(int) NOT NULL, last_ui \(text), sub_first_t \(int), \
            sub_last_t \(int), sub_times \(text)
            """
    }

    func createIndexes(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        // The fact table is clustered on its query order (no index). No name index: a store's stream
        // id is the row's sid; the index is made on demand by the first fold that looks a stream up
        // by name (a source without stream ids).
        // `ended` holds the challenged transactions only: both of its queries (challenges,
        // latency) ask for `started_t IS NOT NULL` (a third of the rows).
        try db.execute(
            """
            CREATE INDEX IF NOT EXISTS \(s)_created ON \(s)(created_t, ds, mv, ares, started_t, outcome);
            CREATE INDEX IF NOT EXISTS \(s)_ended ON \(s)(ended_t, started_t, last_ui, outcome, requests, ds)
              WHERE started_t IS NOT NULL;
            """)
    }

    static let rowColumns = [
        "created_t", "ds", "mv", "ares", "started_t", "outcome", "ended_t", "requests", "submits", "last_ui",
        "sub_first_t", "sub_last_t", "sub_times"
    ]
    static let loadColumns =
        "sid, name, created_t, ds, mv, ares, started_t, outcome, ended_t, requests, submits, last_ui, sub_times"
    static let textBytesPerRow = 24

    struct RowTexts: StreamRowTexts {
        let name, directoryServer, messageVersion, aresStatus, lastUiType, subTimes: TextArena.Span
    }

    static func texts(of row: ThreeDSStreamRow, in texts: inout TextArena) -> RowTexts {
        RowTexts(
            name: texts.add(row.name), directoryServer: texts.add(row.directoryServer),
            messageVersion: texts.add(row.messageVersion), aresStatus: texts.add(row.aresStatus),
            lastUiType: texts.add(row.lastUiType),
            subTimes: texts.add(row.submitTimes.isEmpty ? nil : SortedValues.encode(row.submitTimes)))
    }

    static func spanTimes(of row: ThreeDSStreamRow) -> [Int64] { row.submitTimes }

    static func bind(
        _ row: ThreeDSStreamRow, _ spans: RowTexts, texts: TextArena.Bytes, to write: Statement, after at: Int32
    ) {
        write.bind(at + 1, row.createdAt)
        write.bind(at + 2, spans.directoryServer, in: texts)
        write.bind(at + 3, spans.messageVersion, in: texts)
        write.bind(at + 4, spans.aresStatus, in: texts)
        write.bind(at + 5, row.challengeStartedAt)
        write.bind(at + 6, row.outcome.code)
        write.bind(at + 7, row.endedAt)
        write.bind(at + 8, row.requests)
        write.bind(at + 9, row.submitTexts)
        write.bind(at + 10, spans.lastUiType, in: texts)
        write.bind(at + 11, row.firstSubmitAt)
        write.bind(at + 12, row.lastSubmitAt)
        write.bind(at + 13, spans.subTimes, in: texts)
    }

    static func row(from st: Statement) throws(ProjectionError) -> ThreeDSStreamRow {
        var row = ThreeDSStreamRow(sid: st.int(0), name: st.text(1))
        row.createdAt = st.optionalInt(2)
        row.directoryServer = st.optionalText(3)
        row.messageVersion = st.optionalText(4)
        row.aresStatus = st.optionalText(5)
        row.challengeStartedAt = st.optionalInt(6)
        row.outcome = ThreeDSTransaction.OutcomeKey(code: st.int(7)) ?? .open
        row.endedAt = st.optionalInt(8)
        row.requests = st.int(9)
        row.submitTexts = st.int(10)
        row.lastUiType = st.optionalText(11)
        if let times = st.optionalText(12) {
            guard let decoded = SortedValues.decode(times) else {
                throw ProjectionError(.database, "3ds read model: unreadable sub_times column")
            }
            row.submitTimes = decoded
        }
        return row
    }
}
