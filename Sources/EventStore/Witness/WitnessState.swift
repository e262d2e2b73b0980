import JournalCore

/// What a witness remembers of each log (SQLite, a file of mode 0600): the size, root and note of
/// the latest checkpoint it cosigned. Each change commits with an fsync (`synchronous = FULL`)
/// before it returns, so a cosignature is never answered for a state a crash could lose.
///
///     witness_logs(origin TEXT PRIMARY KEY, size INTEGER, root BLOB, note TEXT, cosigned_at INTEGER)
///
/// Not thread-safe: ``Witness`` serializes every use.
final class WitnessState {
    private let sql: SQLiteConnection
    let path: String

    struct Entry: Equatable {
        var size: Int64
        var root: [UInt8]
    }

    init(path: String) throws(WitnessRefusal) {
        self.path = path
        do {
            sql = try SQLiteConnection(path: path, options: .init(synchronous: 2))
            try sql.execute(
                """
                CREATE TABLE IF NOT EXISTS witness_logs(
                    origin TEXT PRIMARY KEY,
                    size INTEGER NOT NULL,
                    root BLOB NOT NULL,
                    note TEXT NOT NULL,
                    cosigned_at INTEGER NOT NULL
                )
                """)
        } catch {
            throw .stateFailure("cannot open the witness state \(path): \(error)")
        }
    }

    /// Runs `body` in an immediate transaction (another process's witness on the same file waits),
    /// committed when it returns, rolled back when it throws.
    func transaction<R>(_ body: () throws(WitnessRefusal) -> R) throws(WitnessRefusal) -> R {
        do {
            try sql.begin(.immediate)
        } catch {
            throw .stateFailure("cannot lock the witness state \(path): \(error)")
        }
        let result: R
        do {
            result = try body()
        } catch {
            sql.rollback()
            throw error
        }
        do {
            try sql.commit()
        } catch {
            sql.rollback()
            throw .stateFailure("cannot commit the witness state \(path): \(error)")
        }
        return result
    }

    /// The latest cosigned checkpoint of `origin`, nil when none was.
    func entry(origin: String) throws(WitnessRefusal) -> Entry? {
        do {
            let statement = try sql.cached("SELECT size, root FROM witness_logs WHERE origin = ?")
            defer { statement.reset() }
            statement.bind(origin, at: 1)
            guard try statement.step() else { return nil }
            return Entry(size: statement.int64(at: 0), root: statement.blob(at: 1))
        } catch {
            throw .stateFailure("cannot read the witness state \(path): \(error)")
        }
    }

    /// Records the checkpoint cosigned for its origin.
    func record(_ checkpoint: SignedCheckpoint, at time: UInt64) throws(WitnessRefusal) {
        do {
            let statement = try sql.cached(
                """
                INSERT INTO witness_logs(origin, size, root, note, cosigned_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(origin) DO UPDATE SET
                    size = excluded.size, root = excluded.root, note = excluded.note, cosigned_at = excluded.cosigned_at
                """)
            defer { statement.reset() }
            statement.bind(checkpoint.checkpoint.origin, at: 1)
            statement.bind(checkpoint.checkpoint.size, at: 2)
            statement.bind(blob: checkpoint.checkpoint.root, at: 3)
            statement.bind(checkpoint.noteText, at: 4)
            statement.bind(Int64(clamping: time), at: 5)
            try statement.run()
        } catch {
            throw .stateFailure("cannot write the witness state \(path): \(error)")
        }
    }
}
