/// Counts the log's events by occurredAt, so a query can say how many events its window covers
/// without scanning the log: exact counts per millisecond and per hour.
///
/// Tables of generation G: `pj_events_ms_gG(t PK, n)`, `pj_events_hour_gG(h PK, n)` where
/// `h = floor(t / 3_600_000)`. A window sums whole hours from the second table and the partial
/// hours at its edges from the first.
final class EventClockProjection: ProjectionModel {
    let name = "events"
    var version: Int64 = 1
    static let hour: Int64 = 3_600_000
    private var generation: Int64 = 0

    static func msTable(_ g: Int64) -> String { "pj_events_ms_g\(g)" }
    static func hourTable(_ g: Int64) -> String { "pj_events_hour_g\(g)" }

    func tableNames(generation g: Int64) -> [String] { [Self.msTable(g), Self.hourTable(g)] }

    func createTables(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(Self.msTable(g))(t INTEGER PRIMARY KEY, n INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS \(Self.hourTable(g))(h INTEGER PRIMARY KEY, n INTEGER NOT NULL);
            """)
    }

    func open(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) { generation = g }

    func forgetCache() {}

    static func hourOf(_ t: Int64) -> Int64 {
        t >= 0 ? t / hour : -((-t + hour - 1) / hour)
    }

    func apply(_ events: ArraySlice<EventView>, in db: ProjectionDatabase) throws(ProjectionError) {
        var perMillisecond: [Int64: Int64] = [:]
        var perHour: [Int64: Int64] = [:]
        for event in events {
            perMillisecond[event.occurredAt, default: 0] += 1
            perHour[Self.hourOf(event.occurredAt), default: 0] += 1
        }
        let ms = try db.statement(
            "INSERT INTO \(Self.msTable(generation))(t, n) VALUES(?, ?) ON CONFLICT(t) DO UPDATE SET n = \(Self.msTable(generation)).n + excluded.n")
        for (t, n) in perMillisecond.sorted(by: { $0.key < $1.key }) {
            ms.reset()
            ms.bind(1, t)
            ms.bind(2, n)
            try ms.run()
        }
        let hours = try db.statement(
            "INSERT INTO \(Self.hourTable(generation))(h, n) VALUES(?, ?) ON CONFLICT(h) DO UPDATE SET n = \(Self.hourTable(generation)).n + excluded.n")
        for (h, n) in perHour {
            hours.reset()
            hours.bind(1, h)
            hours.bind(2, n)
            try hours.run()
        }
    }

    /// Events with occurredAt in `window`, from generation `g`'s tables.
    static func count(in window: QueryWindow, db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) -> Int64 {
        let lo = window.lowerBound, hi = window.upperBound
        // Whole hours strictly inside the window: [firstHour, endHour).
        let firstHour = lo == Int64.min ? Int64.min : hourOf(lo) + (lo % hour == 0 ? 0 : 1)
        let endHour = hi == Int64.max ? Int64.max : hourOf(hi)
        if firstHour == Int64.min || endHour == Int64.max || firstHour < endHour {
            var total = try db.scalarInt("SELECT coalesce(sum(n), 0) FROM \(hourTable(g)) WHERE h >= ? AND h < ?",
                                         [firstHour, endHour]) ?? 0
            if firstHour != Int64.min {
                total += try db.scalarInt("SELECT coalesce(sum(n), 0) FROM \(msTable(g)) WHERE t >= ? AND t < ?",
                                          [lo, firstHour * hour]) ?? 0
            }
            if endHour != Int64.max {
                total += try db.scalarInt("SELECT coalesce(sum(n), 0) FROM \(msTable(g)) WHERE t >= ? AND t < ?",
                                          [endHour * hour, hi]) ?? 0
            }
            return total
        }
        return try db.scalarInt("SELECT coalesce(sum(n), 0) FROM \(msTable(g)) WHERE t >= ? AND t < ?", [lo, hi]) ?? 0
    }
}
