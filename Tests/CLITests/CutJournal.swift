import EventStore
import Foundation

/// A signed journal of 62 legal events (ten streams one after the other, a checkpoint kept at
/// 62) on SQLite or PostgreSQL, and raw SQL to cut it behind the journal's back, as someone
/// with write access to the database would (the guarding triggers dropped first).
///
/// Positions: 3ds-1 1…4, card-2 5…12, card-3 13…16, 3ds-4 17…25, 3ds-5 26…29, card-6 30…37,
/// card-7 38…41, 3ds-8 42…50, 3ds-9 51…54, card-10 55…62.
final class CutJournal {
    let runner: JournalRunner
    /// `--db` of every command: the SQLite file or the PostgreSQL URL.
    let location: String
    let postgres: Bool
    let head: Int64 = 62

    /// `first`: lines imported before the 62 (a journal that is not the others' log).
    init(postgres: Bool, first: [String] = []) throws {
        runner = try JournalRunner()
        self.postgres = postgres
        location = postgres ? try PostgresCLIServer.freshURL() : runner.database
        var legal = LegalEvents()
        let lines = first + legal.events(atLeast: 60)
        guard lines.count == 62 + first.count else {
            throw FixtureError(message: "expected 62 events, made \(lines.count)")
        }
        let imported = try run(["import", try runner.ndjson("events.ndjson", lines)])
        guard imported.status == 0 else { throw FixtureError(message: "import: \(imported.stderr)") }
        let key = runner.path("j.key")
        guard try runner.run(["keygen", "j.example/log", "--out", key], db: false).status == 0,
            try run(["checkpoint", "--key", key]).status == 0
        else { throw FixtureError(message: "cannot keep a checkpoint") }
    }

    /// The name of stream `n` (1…10): 3DS for n % 4 of 0 or 1, card otherwise.
    static func stream(_ n: Int) -> String {
        n % 4 <= 1 ? LegalEvents.threeDSStream(n) : LegalEvents.cardStream(n)
    }

    /// Runs `journal ARGS --db <location>`.
    func run(_ arguments: [String]) throws -> JournalRunner.Result {
        try runner.run(arguments + ["--db", location], db: false)
    }

    /// Runs `statements` on the database with the journal's guards removed.
    func sql(_ statements: [String]) throws {
        if postgres {
            let store = try PostgresEventStore(url: location)
            try store.withConnection { pg in
                for trigger in PostgresEventStore.immutabilityTriggers {
                    try pg.execute("DROP TRIGGER IF EXISTS \(trigger.name) ON \(trigger.table)")
                }
                for statement in statements { try pg.execute(statement) }
            }
        } else {
            let connection = try SQLiteConnection(path: location)
            defer { connection.close() }
            for trigger in SQLiteEventStore.immutabilityTriggers {
                try connection.execute("DROP TRIGGER IF EXISTS \(trigger)")
            }
            for statement in statements { try connection.execute(statement) }
        }
    }

    /// Deletes the events at `positions`, leaving the head row as it is.
    func delete(_ positions: ClosedRange<Int64>) throws {
        try sql([
            "DELETE FROM journal_events WHERE position BETWEEN \(positions.lowerBound) AND \(positions.upperBound)"
        ])
    }

    /// Moves the head row to `position` and the hash stored there.
    func lowerHead(to position: Int64) throws {
        try sql([
            """
            UPDATE journal_head SET position = \(position), \
            hash = (SELECT hash FROM journal_events WHERE position = \(position)) WHERE singleton = 1
            """
        ])
    }

    /// Cuts the Merkle tree's first leaf tile to `size` leaves (a journal of fewer than 256 events
    /// has only that tile).
    func cutTree(to size: Int64) throws {
        let keep = 32 * size
        try sql([
            postgres
                ? "UPDATE journal_tree SET hashes = substring(hashes FROM 1 FOR \(keep)) WHERE level = 0 AND idx = 0"
                : "UPDATE journal_tree SET hashes = substr(hashes, 1, \(keep)) WHERE level = 0 AND idx = 0"
        ])
    }

    /// Flips a bit of the first leaf hash the Merkle tree stores (position 1's).
    func flipFirstLeaf() throws {
        if postgres {
            try sql([
                """
                UPDATE journal_tree SET hashes = set_byte(hashes, 0, get_byte(hashes, 0) # 1) \
                WHERE level = 0 AND idx = 0
                """
            ])
            return
        }
        try sql([])
        let connection = try SQLiteConnection(path: location)
        defer { connection.close() }
        let read = try connection.prepare("SELECT hashes FROM journal_tree WHERE level = 0 AND idx = 0")
        guard try read.step() else { throw FixtureError(message: "no leaf tile") }
        var hashes = read.blob(at: 0)
        read.reset()
        hashes[0] ^= 1
        let write = try connection.prepare("UPDATE journal_tree SET hashes = ? WHERE level = 0 AND idx = 0")
        write.bind(blob: hashes, at: 1)
        try write.run()
    }

    /// Every command that reads events, each as a user would type it (`stream`: one whose events
    /// the cut touched).
    func readers(stream: String) -> [[String]] {
        [
            ["export"], ["audit", stream], ["state", stream], ["replay", stream], ["replay", "--all"],
            ["query", "funnel"], ["project", "--status"], ["find", "--category", "card"],
            ["report", "--out", runner.path("report.html")], ["prove", "1"], ["bundle", stream],
            ["checkpoint", "--list"]
        ]
    }
}
