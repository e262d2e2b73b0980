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
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(name(g))(sid INTEGER PRIMARY KEY, first_t INTEGER NOT NULL,
              last_t INTEGER NOT NULL, times TEXT NOT NULL)
            """)
    }

    /// Keeps the rows of the streams in `streams` (sid, sorted times) that span more than ``limit``.
    func keep(_ streams: [(Int64, [Int64])], in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        var write: Statement?
        for (sid, times) in streams {
            guard let first = times.first, let last = times.last, last - first > Self.limit else { continue }
            if write == nil {
                write = try db.statement("""
                    INSERT INTO \(name(g))(sid, first_t, last_t, times) VALUES(?, ?, ?, ?)
                    ON CONFLICT(sid) DO UPDATE SET first_t = excluded.first_t, last_t = excluded.last_t,
                      times = excluded.times
                    """)
            }
            guard let write else { continue }
            write.reset()
            write.bind(1, sid)
            write.bind(2, first)
            write.bind(3, last)
            write.bind(4, SortedValues.encode(times))
            try write.run()
        }
    }

    /// The outcomes of the streams of this table with a submission before `lo` and one in
    /// `[lo, hi)`.
    func straddlers(_ lo: Int64, _ hi: Int64, streamTable: String, in db: ProjectionDatabase,
                    generation g: Int64, _ each: (Int64) -> Void) throws(ProjectionError) {
        let st = try db.statement("""
            SELECT l.times, s.outcome FROM \(name(g)) l JOIN \(streamTable) s ON s.sid = l.sid
            WHERE l.first_t < ? AND l.last_t >= ?
            """)
        st.bind(1, lo)
        st.bind(2, lo)
        while try st.step() {
            guard let times = SortedValues.decode(st.text(0)) else {
                st.reset()
                throw ProjectionError(.database, "read models: unreadable submission times in \(name(g))")
            }
            if times.contains(where: { $0 >= lo && $0 < hi }) { each(st.int(1)) }
        }
    }
}
