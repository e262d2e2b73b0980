import EventStore
import JournalCore
import JournalTestSupport
import Testing

/// What only the PostgreSQL backend has: its server, its errors, its wire-level batching and its
/// notifications. The shared behaviour is in the conformance suites.
@Suite("PostgreSQL store", .enabled(if: !PostgresTestServer.skipped, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresStoreTests {
    @Test func thePrivateTestServerIsPostgreSQL15ListeningOnLoopback() throws {
        let server = try PostgresTestServer.server()
        let connection = try PostgresConnection(server.url())
        #expect(connection.serverVersion / 10_000 == 15)
        let address = try connection.query("SELECT current_setting('listen_addresses')")
        #expect(address.text(0, 0) == "127.0.0.1")
    }

    @Test func theSameEventsGiveTheSameStoredEventsAndHashesAsSQLite() throws {
        let sqlite = try SQLiteEventStore(path: ":memory:", configuration: StoreOptions().sqlite)
        let postgres = try PostgresEventStore(
            url: try PostgresTestServer.freshURL(), configuration: StoreOptions().postgres)
        for store in [sqlite, postgres] as [any EventStore] {
            for n in 0..<20 {
                let meta = n % 3 == 0 ? #"{"platform":"ios"}"# : nil
                try store.append(
                    [Fixture.event(n, type: n % 2 == 0 ? "A" : "B", meta: meta)],
                    to: Fixture.stream(n % 4), expectedVersion: .any)
            }
            try store.append([
                StreamAppend(stream: Fixture.stream(9), events: Fixture.events(20..<25)),
                StreamAppend(stream: Fixture.stream(1), events: Fixture.events(25..<27))
            ])
        }
        #expect(try postgres.readAll(from: 1, limit: 100) == sqlite.readAll(from: 1, limit: 100))
        #expect(try postgres.verify() == sqlite.verify())
    }

    @Test func aBigAppendIsSplitIntoSeveralInsertsAndStaysAtomic() throws {
        var configuration = StoreOptions().postgres
        configuration.pipelineChunk = 100
        let store = try PostgresEventStore(url: try PostgresTestServer.freshURL(), configuration: configuration)
        let result = try store.append(Fixture.events(0..<1_050), to: Fixture.stream(1), expectedVersion: .noStream)
        #expect(result.positions == Array(1...1_050))
        #expect(store.groupCommitCount == 1)
        #expect(try store.verify().events == 1_050)
        // A batch whose last event clashes writes nothing, whatever its size.
        var clash = Fixture.event(3)
        clash.type = "Changed"
        #expect(throws: EventStoreError.self) {
            try store.append(Fixture.events(2_000..<2_500) + [clash], to: Fixture.stream(2), expectedVersion: .any)
        }
        #expect(try store.headPosition() == 1_050)
    }

    @Test func compressionUsesTheSameDictionaryAndFormatAsSQLite() throws {
        let options = StoreOptions(dictionaryTrainingEvents: 8)
        let sqlite = try SQLiteEventStore(path: ":memory:", configuration: options.sqlite)
        let postgres = try PostgresEventStore(url: try PostgresTestServer.freshURL(), configuration: options.postgres)
        for store in [sqlite, postgres] as [any EventStore] {
            for n in 0..<30 { try store.append([Fixture.event(n)], to: Fixture.stream(n % 3), expectedVersion: .any) }
        }
        let sqliteRows = try sqlite.withConnection { db in
            let statement = try db.prepare("SELECT codec, payload FROM journal_events ORDER BY position")
            var rows: [[UInt8]] = []
            while try statement.step() { rows.append([UInt8(statement.int64(at: 0))] + statement.blob(at: 1)) }
            return rows
        }
        let postgresRows = try postgres.withConnection { pg in
            let result = try pg.query("SELECT codec, payload FROM journal_events ORDER BY position")
            return (0..<result.rowCount).map { [UInt8(result.int64($0, 0))] + result.bytes($0, 1) }
        }
        #expect(postgresRows == sqliteRows)
        #expect(postgresRows.suffix(20).allSatisfy { $0[0] == 1 }, "events after training are compressed")
        #expect(try postgres.readAll(from: 1, limit: 100) == sqlite.readAll(from: 1, limit: 100))
    }

    @Test func aFollowerOnAnotherSessionIsWokenByNotifyNotByPolling() throws {
        let url = try PostgresTestServer.freshURL()
        let writer = try PostgresEventStore(url: url)
        let reader = try PostgresEventStore(url: url)
        // Polling once a minute: only a notification can deliver the event before the timeout.
        let follower = EventFollower(store: reader, from: 1, pollInterval: .seconds(60))
        #expect(try follower.next(timeout: .milliseconds(300)) == nil)
        try writer.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        let event = try follower.next(timeout: .seconds(20))
        #expect(event?.position == 1)
    }

    @Test func aHeldAppendLockMakesAWriterGiveUpWithBusyAndTheSQLState() throws {
        let url = try PostgresTestServer.freshURL()
        var configuration = StoreOptions().postgres
        configuration.lockTimeoutMilliseconds = 200
        let store = try PostgresEventStore(url: url, configuration: configuration)
        let other = try PostgresConnection(url)
        try other.execute("BEGIN")
        _ = try other.query("SELECT position FROM journal_head FOR UPDATE")
        let error = try #require(throws: EventStoreError.self) {
            try store.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        }
        #expect(error.code == .busy)
        #expect(error.backendCode == "55P03")
        try other.execute("ROLLBACK")
        try store.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        #expect(try store.headPosition() == 1)
    }

    @Test func triggersRefuseTruncateAndHeadRewindsWithAnIntegritySQLState() throws {
        let url = try PostgresTestServer.freshURL()
        let store = try PostgresEventStore(url: url)
        try store.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .any)
        let other = try PostgresConnection(url)
        for sql in [
            "TRUNCATE journal_events", "UPDATE journal_head SET position = 1", "DELETE FROM journal_head",
            "UPDATE journal_streams SET name = 'x-y'", "DELETE FROM journal_types"
        ] {
            let error = #expect(throws: PostgresError.self, "\(sql)") { try other.execute(sql) }
            #expect(error?.sqlState == "23001", "\(sql)")
        }
        #expect(try store.verify().events == 3)
    }

    @Test func aMissingDatabaseIsMissingAndNoErrorShowsThePassword() throws {
        let server = try PostgresTestServer.server()
        let url = "postgresql://postgres:s3cr3t-pw@127.0.0.1:\(server.port)/no_such_db"
        let error = try #require(throws: EventStoreError.self) { try PostgresEventStore(url: url) }
        #expect(error.code == .missing)
        #expect(error.backendCode == "3D000")
        #expect(!error.message.contains("s3cr3t-pw"))
        #expect(error.message.contains("postgres:***@127.0.0.1"))
        // Nobody listens on port 1: a connection failure, still without the password.
        let refused = try #require(throws: EventStoreError.self) {
            try PostgresEventStore(url: "postgres://app:s3cr3t-pw@127.0.0.1:1/journal?password=s3cr3t-pw")
        }
        #expect(refused.code == .io)
        #expect(!refused.description.contains("s3cr3t-pw"))
    }

    @Test func aReadOnlyStoreOfAnEmptySchemaIsMissingAndCreatesNothing() throws {
        let url = try PostgresTestServer.freshURL()
        let error = try #require(throws: EventStoreError.self) {
            try PostgresEventStore(url: url, configuration: .init(createIfMissing: false, readOnly: true))
        }
        #expect(error.code == .missing)
        _ = try PostgresEventStore(url: url)
        let readOnly = try PostgresEventStore(url: url, configuration: .init(createIfMissing: false, readOnly: true))
        #expect(throws: EventStoreError.self) {
            try readOnly.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        }
        #expect(try readOnly.headPosition() == 0)
    }
}

@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test(arguments: [
        ("postgres://app:pw@db:5432/journal", "postgres://app:***@db:5432/journal"),
        (
            "postgresql://app@db/journal?password=pw&sslmode=require",
            "postgresql://app@db/journal?password=***&sslmode=require"
        ),
        ("host=db user=app password=pw dbname=journal", "host=db user=app password=*** dbname=journal"),
        ("postgres://db/journal", "postgres://db/journal")
    ])
    func credentialsAreRedacted(url: String, redacted: String) {
        #expect(PostgresURL.redacted(url) == redacted)
    }

    @Test(arguments: [
        ("postgres://x/y", true), ("postgresql://x/y", true), ("journal.db", false), ("/tmp/postgres://", false)
    ])
    func onlyPostgresURLsSelectPostgreSQL(location: String, isPostgres: Bool) {
        #expect(PostgresURL.isPostgres(location) == isPostgres)
    }
}
