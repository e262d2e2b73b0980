/// Counts the log's events by occurredAt, so a query can say how many events its window covers
/// without scanning the log: exactly, to the millisecond, with one row per minute and batch.
///
/// Tables of generation G:
/// - `pj_events_hour_gG(h PK, n)`, `h = floor(t / 3_600_000)`: events per hour;
/// - `pj_events_min_gG(m, n, ms)`, `m = floor(t / 60_000)`, indexed by `m`: each batch appends
///   one row per minute it touched: `n` events, whose millisecond offsets in the minute are in
///   `ms` (sorted, 3 characters each in a 64-letter alphabet: portable text, no blob).
///
/// A window sums the whole hours it covers from the first table, the whole minutes at its edges
/// from `n`, and decodes `ms` only for the (at most two) minutes its bounds cut through.
final class EventClockProjection: ProjectionModel {
    let name = "events"
    /// 2: minute rows with millisecond offsets instead of one row per millisecond.
    var version: Int64 = 2
    static let hour: Int64 = 3_600_000
    static let minute: Int64 = 60_000
    private var generation: Int64 = 0

    static func minuteTable(_ g: Int64) -> String { "pj_events_min_g\(g)" }
    static func hourTable(_ g: Int64) -> String { "pj_events_hour_g\(g)" }

    func tableNames(generation g: Int64) -> [String] { [Self.minuteTable(g), Self.hourTable(g)] }

    func createTables(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let m = Self.minuteTable(g)
        let (int, text) = (db.sql.integer, db.sql.text)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(m)(m \(int) NOT NULL, n \(int) NOT NULL, ms \(text) NOT NULL);
            CREATE TABLE IF NOT EXISTS \(Self.hourTable(g))(h \(int) PRIMARY KEY, n \(int) NOT NULL);
            """)
    }

    func createIndexes(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) {
        let m = Self.minuteTable(g)
        try db.execute("CREATE INDEX IF NOT EXISTS \(m)_m ON \(m)(m)")
    }

    func open(in db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) { generation = g }

    func forgetCache() {}

    /// ⌊t / unit⌋ for any sign.
    static func floorDiv(_ t: Int64, _ unit: Int64) -> Int64 {
        t >= 0 ? t / unit : -((-(t + 1)) / unit) - 1
    }

    static func hourOf(_ t: Int64) -> Int64 { floorDiv(t, hour) }

    func fold(
        _ events: ArraySlice<EventView>, names: StreamNaming,
        db: ProjectionDatabase?
    ) throws(ProjectionError) -> PendingWrite? {
        var times: [Int64] = []
        times.reserveCapacity(events.count)
        for event in events { times.append(event.occurredAt) }
        RadixSort.sort(&times)
        var minutes: [(m: Int64, n: Int64, ms: String)] = []
        var perHour: [Int64: Int64] = [:]
        var i = 0
        var text: [UInt8] = []
        while i < times.count {
            let m = Self.floorDiv(times[i], Self.minute)
            let base = m * Self.minute
            text.removeAll(keepingCapacity: true)
            var j = i
            while j < times.count && times[j] - base < Self.minute {
                Self.encode(times[j] - base, into: &text)
                j += 1
            }
            minutes.append((m, Int64(j - i), String(decoding: text, as: UTF8.self)))
            perHour[Self.hourOf(base), default: 0] += Int64(j - i)
            i = j
        }
        let hours = perHour.sorted { $0.key < $1.key }
        let generation = self.generation
        return PendingWrite(Rows(minutes: minutes, hours: hours, generation: generation))
    }

    /// A batch's minute rows and hour counts, written in the batch's transaction.
    private struct Rows: BatchWrite {
        let minutes: [(m: Int64, n: Int64, ms: String)]
        let hours: [(key: Int64, value: Int64)]
        let generation: Int64

        func write(in db: ProjectionDatabase) throws(ProjectionError) {
            let rows = try db.statement(
                "INSERT INTO \(EventClockProjection.minuteTable(generation))(m, n, ms) VALUES(\(db.sql.parameters(3)))")
            for minute in minutes {
                rows.reset()
                rows.bind(1, minute.m)
                rows.bind(2, minute.n)
                rows.bind(3, minute.ms)
                try rows.run()
            }
            let table = EventClockProjection.hourTable(generation)
            let hourRows = try db.statement(
                """
                INSERT INTO \(table)(h, n) VALUES(\(db.sql.parameters(2))) \
                ON CONFLICT(h) DO UPDATE SET n = \(table).n + excluded.n
                """)
            for (h, n) in hours {
                hourRows.reset()
                hourRows.bind(1, h)
                hourRows.bind(2, n)
                try hourRows.run()
            }
        }
    }

    // MARK: - Millisecond offsets as text

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_".utf8)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, letter) in alphabet.enumerated() { table[Int(letter)] = Int8(value) }
        return table
    }()

    /// Appends an offset (0 ..< 60 000) as three letters, most significant first (so the text
    /// sorts like the numbers).
    static func encode(_ offset: Int64, into text: inout [UInt8]) {
        let v = Int(offset)
        text.append(alphabet[(v >> 12) & 63])
        text.append(alphabet[(v >> 6) & 63])
        text.append(alphabet[v & 63])
    }

    /// How many offsets in `text` lie in `lo ..< hi`; nil when the text is damaged.
    static func count(in text: String, from lo: Int64, to hi: Int64) -> Int64? {
        var utf8 = text.utf8.makeIterator()
        var n: Int64 = 0
        while let a = utf8.next() {
            guard let b = utf8.next(), let c = utf8.next() else { return nil }
            let x = values[Int(a)]
            let y = values[Int(b)]
            let z = values[Int(c)]
            guard x >= 0, y >= 0, z >= 0 else { return nil }
            let v = Int64(x) << 12 | Int64(y) << 6 | Int64(z)
            if v >= lo && v < hi { n += 1 }
        }
        return n
    }

    // MARK: - Counting

    /// The first and last occurredAt of the log's events, rounded out to whole minutes (nil
    /// when there are none).
    static func span(db: ProjectionDatabase, generation g: Int64) throws(ProjectionError) -> ClosedRange<Int64>? {
        guard let first = try db.scalarInt("SELECT min(m) FROM \(minuteTable(g))"),
            let last = try db.scalarInt("SELECT max(m) FROM \(minuteTable(g))")
        else { return nil }
        return first * minute...(last + 1) * minute - 1
    }

    /// Events with occurredAt in `window`, from generation `g`'s tables.
    static func count(in window: QueryWindow, db: ProjectionDatabase, generation g: Int64) throws(ProjectionError)
        -> Int64
    {
        let lo = window.lowerBound
        let hi = window.upperBound
        guard lo < hi else { return 0 }
        if lo == Int64.min && hi == Int64.max {
            return try db.scalarInt("SELECT coalesce(sum(n), 0) FROM \(hourTable(g))") ?? 0
        }
        // Minutes wholly inside: [firstMinute, endMinute); partial minutes at the edges.
        let loMinute = lo == Int64.min ? Int64.min : floorDiv(lo, minute)
        let hiMinute = hi == Int64.max ? Int64.max : floorDiv(hi, minute)
        if loMinute != Int64.min && loMinute == hiMinute {
            return try partial(
                loMinute, from: lo - loMinute * minute, to: hi - loMinute * minute, db: db, generation: g)
        }
        var total: Int64 = 0
        var firstMinute = loMinute
        if loMinute != Int64.min && lo != loMinute * minute {
            total += try partial(loMinute, from: lo - loMinute * minute, to: minute, db: db, generation: g)
            firstMinute = loMinute + 1
        }
        let endMinute = hiMinute
        if hiMinute != Int64.max && hi != hiMinute * minute {
            total += try partial(hiMinute, from: 0, to: hi - hiMinute * minute, db: db, generation: g)
        }
        total += try wholeMinutes(from: firstMinute, to: endMinute, db: db, generation: g)
        return total
    }

    /// Events in the whole minutes [first, end) (`Int64.min`/`max`: open).
    private static func wholeMinutes(
        from first: Int64, to end: Int64, db: ProjectionDatabase,
        generation g: Int64
    ) throws(ProjectionError) -> Int64 {
        guard first < end else { return 0 }
        let perHour = hour / minute
        // Whole hours inside, from the hour table: [firstHour, endHour).
        let firstHour = first == Int64.min ? Int64.min : floorDiv(first + perHour - 1, perHour)
        let endHour = end == Int64.max ? Int64.max : floorDiv(end, perHour)
        guard firstHour < endHour else {
            return try minuteSum(from: first, to: end, db: db, generation: g)
        }
        var total =
            try db.scalarInt(
                "SELECT coalesce(sum(n), 0) FROM \(hourTable(g)) WHERE h >= \(db.sql.p(1)) AND h < \(db.sql.p(2))",
                [firstHour, endHour]) ?? 0
        if firstHour != Int64.min {
            total += try minuteSum(from: first, to: firstHour * perHour, db: db, generation: g)
        }
        if endHour != Int64.max { total += try minuteSum(from: endHour * perHour, to: end, db: db, generation: g) }
        return total
    }

    private static func minuteSum(
        from first: Int64, to end: Int64, db: ProjectionDatabase,
        generation g: Int64
    ) throws(ProjectionError) -> Int64 {
        guard first < end else { return 0 }
        return try db.scalarInt(
            "SELECT coalesce(sum(n), 0) FROM \(minuteTable(g)) WHERE m >= \(db.sql.p(1)) AND m < \(db.sql.p(2))",
            [first, end]) ?? 0
    }

    /// Events of minute `m` whose offset lies in `lo ..< hi`.
    private static func partial(
        _ m: Int64, from lo: Int64, to hi: Int64, db: ProjectionDatabase,
        generation g: Int64
    ) throws(ProjectionError) -> Int64 {
        let st = try db.statement("SELECT ms FROM \(minuteTable(g)) WHERE m = \(db.sql.p(1))")
        st.bind(1, m)
        defer { st.reset() }
        var total: Int64 = 0
        while try st.step() {
            guard let n = count(in: st.text(0), from: lo, to: hi) else {
                throw ProjectionError(.database, "events read model: unreadable minute row")
            }
            total += n
        }
        return total
    }
}
