import EventStore
import Synchronization

/// The raw baseline's side of the append and read measurements (see ``RawSQLite``).
enum RawBench {
    static func rows(_ events: ArraySlice<BenchEvent>) -> [RawRow] {
        events.map { RawRow(stream: $0.stream.rawValue, version: $0.version, payload: $0.event.data) }
    }

    /// Inserts `rows` in transactions of `batch` rows into a fresh table; events per second.
    static func append(_ rows: ArraySlice<RawRow>, batch: Int, path: String) throws -> Timing {
        System.removeDatabase(path)
        let db = try RawSQLite(path: path)
        let start = Timing.start()
        for offset in stride(from: rows.startIndex, to: rows.endIndex, by: batch) {
            try db.append(rows[offset..<min(offset + batch, rows.endIndex)])
        }
        return Timing(events: rows.count, since: start)
    }

    /// `writers` threads each inserting one row per transaction on one shared connection (what
    /// SQLite offers without group commit: every writer pays its own fsync); events per second.
    static func appendGroup(_ rows: ArraySlice<RawRow>, writers: Int, path: String) throws -> Double {
        System.removeDatabase(path)
        let db = try RawSQLite(path: path)
        let all = Array(rows)
        let seconds = try ConcurrentRun.run(count: writers) { writer in
            for index in stride(from: writer, to: all.count, by: writers) {
                try db.append(all[index...index])
            }
        }
        return Double(rows.count) / seconds
    }

    /// Reads the whole table (pages of 1000, each row copied out); (events, seconds).
    static func readAll(path: String) throws -> Timing {
        let db = try RawSQLite(path: path)
        let start = Timing.start()
        let count = try db.readAll()
        return Timing(events: count, since: start)
    }
}
