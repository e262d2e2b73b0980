import Foundation
import Testing

/// The CLI on PostgreSQL: `--db`/`JOURNAL_DB` select the backend from the location, and
/// `journal copy` moves a journal between backends with every stored field preserved.
@Suite(
    "PostgreSQL end to end", .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
struct PostgresEndToEndTests {
    static let secret = "n0t-in-0utput"

    private func expectNoSecret(_ result: JournalRunner.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.stdout.contains(Self.secret), "stdout shows the password", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains(Self.secret), "stderr shows the password", sourceLocation: sourceLocation)
    }

    @Test func copyMovesAJournalToPostgreSQLAndBackWithEveryFieldAndTheChainPreserved() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let all = events.events(atLeast: 80)
        try runner.importLegal(Array(all.prefix(40)), name: "first.ndjson")
        let url = try PostgresCLIServer.freshURL(password: Self.secret)

        let copy = try runner.run(["copy", "--from", runner.database, "--to", url, "--format", "json"], db: false)
        #expect(copy.status == 0, "\(copy.stderr)")
        expectNoSecret(copy)
        #expect(copy.stdout.contains(#""ok":true"#))
        #expect(copy.stdout.contains(#""to":"postgresql://postgres:***@127.0.0.1"#))

        // More events in the source, then the same copy again: it resumes after the prefix.
        try runner.importLegal(Array(all.dropFirst(40)), name: "second.ndjson")
        let resumed = try runner.run(["copy", "--from", runner.database, "--to", url], db: false)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("resumed after position 40"))
        expectNoSecret(resumed)

        // The export (ids, streams, versions, positions, occurredAt, recordedAt, data, meta,
        // hashes) is byte-identical on both backends.
        let sqliteExport = try runner.run(["export"])
        let postgresExport = try runner.run(["export", "--db", url], db: false)
        #expect(postgresExport.status == 0, "\(postgresExport.stderr)")
        #expect(postgresExport.stdout == sqliteExport.stdout)
        #expect(sqliteExport.stdoutLines.count == all.count)

        let verify = try runner.run(["verify", "--format", "json"], db: false, environment: ["JOURNAL_DB": url])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains(#""events":\#(all.count)"#))
        expectNoSecret(verify)

        // And back into a new SQLite file.
        let back = runner.path("back.db")
        let copyBack = try runner.run(["copy", "--from", url, "--to", back], db: false)
        #expect(copyBack.status == 0, "\(copyBack.stderr)")
        #expect(try runner.run(["export", "--db", back], db: false).stdout == sqliteExport.stdout)
        #expect(copyBack.stdout.contains("ok: same Merkle root "))

        // A checkpoint signed on SQLite holds on PostgreSQL: same leaf lines, same tree.
        let key = runner.path("j.key")
        let keygen = try runner.run(["keygen", "j.example/log", "--out", key], db: false)
        let checkpoint = try runner.write("checkpoint.txt", try runner.run(["checkpoint", "--key", key]).stdout)
        let held = try runner.run(
            [
                "verify", "--db", url, "--checkpoint", checkpoint, "--key",
                keygen.stdout.trimmingCharacters(in: .newlines)
            ], db: false)
        #expect(held.status == 0, "\(held.stderr)")
        expectNoSecret(held)
    }

    @Test func copyRefusesADestinationThatIsNotAPrefixOfTheSource() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.events(atLeast: 10))
        let url = try PostgresCLIServer.freshURL()
        var other = LegalEvents()
        _ = other.events(atLeast: 30)
        let otherFile = try runner.ndjson("other.ndjson", other.events(atLeast: 10))
        #expect(try runner.run(["import", otherFile, "--db", url], db: false).status == 0)
        let refused = try runner.run(["copy", "--from", runner.database, "--to", url], db: false)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not the start of"))
    }

    @Test func importAndReadCommandsRunOnAPostgreSQLURL() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let lines = events.events(atLeast: 30)
        let file = try runner.ndjson("events.ndjson", lines)
        let url = try PostgresCLIServer.freshURL(password: Self.secret)
        let imported = try runner.run(["import", file, "--db", url], db: false)
        #expect(imported.status == 0, "\(imported.stderr)")
        expectNoSecret(imported)
        #expect(try runner.run(["import", file]).status == 0)
        for command in [
            ["state", LegalEvents.threeDSStream(4)], ["replay", "--all"], ["audit", LegalEvents.cardStream(2)]
        ] {
            let onPostgres = try runner.run(command + ["--db", url], db: false)
            let onSQLite = try runner.run(command)
            #expect(onPostgres.status == onSQLite.status, "\(command)")
            if command[0] != "audit" {
                #expect(onPostgres.stdout == onSQLite.stdout, "\(command)")
            }
            expectNoSecret(onPostgres)
        }
        // Importing the same file again: every line is an idempotent duplicate.
        let again = try runner.run(["import", file, "--db", url, "--format", "json"], db: false)
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func simulateIntoPostgreSQLGivesTheSameJournalAsIntoSQLite() throws {
        let runner = try JournalRunner()
        let url = try PostgresCLIServer.freshURL(password: Self.secret)
        let arguments = ["simulate", "--seed", "3", "--transactions", "20", "--digitizations", "10"]
        let onPostgres = try runner.run(arguments + ["--db", url], db: false)
        #expect(onPostgres.status == 0, "\(onPostgres.stderr)")
        expectNoSecret(onPostgres)
        #expect(try runner.run(arguments).status == 0)
        // Simulated recordedAt values come from the simulated clock: the exports, hashes
        // included, are byte-identical across backends.
        let sqliteExport = try runner.run(["export"])
        #expect(try runner.run(["export", "--db", url], db: false).stdout == sqliteExport.stdout)
        #expect(!sqliteExport.stdout.isEmpty)
    }

    @Test func anUnreachableServerIsAnErrorThatDoesNotShowThePassword() throws {
        let runner = try JournalRunner()
        let url = "postgres://app:\(Self.secret)@127.0.0.1:1/journal"
        let result = try runner.run(["verify", "--db", url], db: false)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains("app:***@127.0.0.1:1"))
        expectNoSecret(result)
    }
}
