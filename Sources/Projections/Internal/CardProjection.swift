import Domain
import JournalCore

/// The `card` read model: one row per `card` stream, updated in place, and one fact row per
/// counted event, indexed by kind and occurredAt.
///
/// Tables of generation G:
/// - `pj_card_stream_gG(sid PK, name, nh (its hash, indexed), decision_t, methods (JSON object id → kind), selected,
///   selections, otps, outcome, ended_t, otp_first_t, otp_last_t, start_t, eligible, sel_types)`; indexes on
///   `decision_t` and `start_t` (the `rates` cohort of a window's partial minutes).
/// - `pj_card_fact_gG(kind, t, sid, a, b, v, seq)`, `WITHOUT ROWID`, keyed `(kind, t, a, b, sid, seq)`.
/// - the all-time totals (``TotalsTables``, prefix `pj_card`).
final class CardProjection: CategoryModel {
    let name = "card"
    /// 2: covering fact index. 3: totals folded by structured keys, stream rows upserted.
    /// 4: counters and activation durations per time bucket (minute, 10 minutes, hour, day).
    /// 5: earliest and latest OTPSubmitted per journey; `journey` placed at the earliest.
    /// 6: OTP times per journey and the long-span table (`otp` windows).
    /// 7: duration lists per 10 minutes too.
    /// 8: the stream-name index is on a 64-bit hash of the name (`nh`), not on the text.
    /// 9: a store's stream id is the row's sid (no name index at the swap); facts clustered on
    ///    `(kind, t, a, b, sid, seq)` (no fact index); no histogram over all methods (summed from
    ///    theirs at query time).
    /// 10: the histogram over all methods is stored again (the sum at query time was too slow
    ///     for the query-time goal on large journals).
    /// 11: the journey's start (`EligibilityChecked`), eligibility and selected method types,
    ///     and the `cohort` counters at the start (`rates`).
    var version: Int64 = 11
    var generation: Int64 = 0
    var directory = StreamRowDirectory<CardStreamRow>()

    typealias Fold = CardFold

    static let tablePrefix = "pj_card"
    static let factsHaveValues = true

    static func streamColumnDefinitions(_ sql: ReadModelSQL) -> String {
        let (int, text) = (sql.integer, sql.text)
        return """
            decision_t \(int),
              methods \(text) NOT NULL, selected \(text), selections \(int) NOT NULL, otps \(int) NOT NULL,
              outcome \(int) NOT NULL, ended_t \(int), otp_first_t \(int), otp_last_t \(int), otp_times \(text),
              start_t \(int), eligible \(int) NOT NULL, sel_types \(text)
            """
    }

    func createIndexes(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let s = Self.streamTable(g)
        // No name index: a store's stream id is the row's sid; the fact table is clustered on
        // its query order (see `ThreeDSProjection`).
        try db.execute(
            """
            CREATE INDEX IF NOT EXISTS \(s)_decision ON \(s)(decision_t);
            CREATE INDEX IF NOT EXISTS \(s)_start ON \(s)(start_t, eligible, outcome, decision_t, sel_types, selected);
            """)
    }

    static let rowColumns = [
        "decision_t", "methods", "selected", "selections", "otps", "outcome", "ended_t", "otp_first_t", "otp_last_t",
        "otp_times", "start_t", "eligible", "sel_types"
    ]
    static let loadColumns =
        "sid, name, decision_t, methods, selected, selections, otps, outcome, ended_t, otp_times, start_t, eligible, "
        + "sel_types"
    static let textBytesPerRow = 64

    struct RowTexts: StreamRowTexts {
        let name, methods, selected, otpTimes, selectedTypes: TextArena.Span
    }

    static func texts(of row: CardStreamRow, in texts: inout TextArena) -> RowTexts {
        RowTexts(
            name: texts.add(row.name), methods: texts.add(encode(row.methods)),
            selected: texts.add(row.selectedKind),
            otpTimes: texts.add(row.otpTimes.isEmpty ? nil : SortedValues.encode(row.otpTimes)),
            selectedTypes: texts.add(row.selectedTypes.isEmpty ? nil : row.selectedTypes.joined(separator: ",")))
    }

    static func spanTimes(of row: CardStreamRow) -> [Int64] { row.otpTimes }

    static func bind(
        _ row: CardStreamRow, _ spans: RowTexts, texts: TextArena.Bytes, to write: Statement, after at: Int32
    ) {
        write.bind(at + 1, row.decisionAt)
        write.bind(at + 2, spans.methods, in: texts)
        write.bind(at + 3, spans.selected, in: texts)
        write.bind(at + 4, row.selections)
        write.bind(at + 5, row.otpSubmissions)
        write.bind(at + 6, row.outcome.code)
        write.bind(at + 7, row.endedAt)
        write.bind(at + 8, row.firstOTPAt)
        write.bind(at + 9, row.lastOTPAt)
        write.bind(at + 10, spans.otpTimes, in: texts)
        write.bind(at + 11, row.startedAt)
        write.bind(at + 12, Int64(row.eligible ? 1 : 0))
        write.bind(at + 13, spans.selectedTypes, in: texts)
    }

    static func row(from st: Statement) throws(ProjectionError) -> CardStreamRow {
        var row = CardStreamRow(sid: st.int(0), name: st.text(1))
        row.decisionAt = st.optionalInt(2)
        row.methods = try decode(st.text(3))
        row.selectedKind = st.optionalText(4)
        row.selections = st.int(5)
        row.otpSubmissions = st.int(6)
        row.outcome = CardDigitization.OutcomeKey(code: st.int(7)) ?? .open
        row.endedAt = st.optionalInt(8)
        if let times = st.optionalText(9) {
            guard let decoded = SortedValues.decode(times) else {
                throw ProjectionError(.database, "card read model: unreadable otp_times column")
            }
            row.otpTimes = decoded
        }
        row.startedAt = st.optionalInt(10)
        row.eligible = st.int(11) != 0
        row.selectedTypes = st.optionalText(12).map { $0.split(separator: ",").map(String.init) } ?? []
        return row
    }

    static func encode(_ methods: [String: String]) -> String {
        if methods.isEmpty { return "{}" }
        let object = JSONObject(methods.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        return JSONWriter.string(.object(object))
    }

    static func decode(_ text: String) throws(ProjectionError) -> [String: String] {
        if text == "{}" { return [:] }
        guard let object = (try? JSONParser().parse(text))?.objectValue else {
            throw ProjectionError(.database, "card read model: unreadable methods column")
        }
        var methods: [String: String] = [:]
        for (key, value) in object { methods[key] = value.stringValue ?? "unknown" }
        return methods
    }
}
