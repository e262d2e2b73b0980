/// The streams whose counted submissions (3DS `submitText` requests, card `OTPSubmitted`) lie
/// more than ``limit`` apart from first to last, with all their submission times:
/// `<prefix>_long_gG(sid PK, first_t, last_t, times)`, times as ``SortedValues`` text.
///
/// `otp` counts a stream in a window when one of its submissions lies in it. The streams whose
/// earliest submission lies in the window come from the time buckets; the others have one
/// before the window's start `lo` and one in the window: when their submissions span at most
/// ``limit`` they have one in `[lo, lo + limit)` (a few minutes of fact rows, read), and the
/// others are in this table (rare; a span only grows, so a stream once here stays here).
struct LongSpanTable {
    let prefix: String
    /// Ten minutes.
    static let limit: Int64 = 600_000

    func name(_ g: Int64) -> String { "\(prefix)_long_g\(g)" }

    func create(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let sql = db.sql
        let (int, text) = (sql.integer, sql.text)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(name(g))(sid \(int) PRIMARY KEY, first_t \(int) NOT NULL,
              last_t \(int) NOT NULL, times \(text) NOT NULL)
            """)
    }

    /// The rows to keep of the streams whose submissions (sid, sorted times) span more than
    /// ``limit`` (no database access).
    static func rows<Rows: Sequence>(_ streams: Rows) -> [(sid: Int64, first: Int64, last: Int64, times: String)]
    where Rows.Element == (Int64, [Int64]) {
        var rows: [(sid: Int64, first: Int64, last: Int64, times: String)] = []
        for (sid, times) in streams {
            guard let first = times.first, let last = times.last, last - first > Self.limit else { continue }
            rows.append((sid, first, last, SortedValues.encode(times)))
        }
        return rows
    }

    /// Writes (or replaces) the rows of ``rows(_:)``, in the caller's transaction.
    func keep(
        _ rows: [(sid: Int64, first: Int64, last: Int64, times: String)], in db: ProjectionDatabase,
        generation g: Int64
    ) throws(ProjectionError) {
        guard !rows.isEmpty else { return }
        let write = try db.statement(
            """
            INSERT INTO \(name(g))(sid, first_t, last_t, times) VALUES(\(db.sql.parameters(4)))
            ON CONFLICT(sid) DO UPDATE SET first_t = excluded.first_t, last_t = excluded.last_t,
              times = excluded.times
            """)
        for row in rows {
            write.reset()
            write.bind(1, row.sid)
            write.bind(2, row.first)
            write.bind(3, row.last)
            write.bind(4, row.times)
            try write.run()
        }
    }

    /// The outcomes of the streams of this table with a submission before `lo` and one in
    /// `[lo, hi)`.
    func straddlers(
        _ lo: Int64, _ hi: Int64, streamTable: String, in db: ProjectionDatabase,
        generation g: Int64, _ each: (Int64) -> Void
    ) throws(ProjectionError) {
        let st = try db.statement(
            """
            SELECT \(Straddler.columns) FROM \(name(g)) l JOIN \(streamTable) s ON s.sid = l.sid
            WHERE l.first_t < \(db.sql.p(1)) AND l.last_t >= \(db.sql.p(2))
            """)
        st.bind(1, lo)
        st.bind(2, lo)
        while try st.step() {
            let straddler = Straddler(st)
            guard let times = SortedValues.decode(straddler.times) else {
                st.reset()
                throw ProjectionError(.database, "read models: unreadable submission times in \(name(g))")
            }
            if times.contains(where: { $0 >= lo && $0 < hi }) { each(straddler.outcome) }
        }
    }

    /// A stream of this table (`l`) joined to its stream row (`s`): the columns it is read
    /// from, and its decoding.
    private struct Straddler {
        static let columns = "l.times, s.outcome"

        /// The submission times, as ``SortedValues`` text.
        var times: String
        /// The stream's outcome code.
        var outcome: Int64

        /// The current row of a statement that selects ``columns``.
        init(_ st: Statement) {
            times = st.text(0)
            outcome = st.int(1)
        }
    }
}
