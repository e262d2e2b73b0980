import Dispatch
import EventStore
import JournalCore
import Synchronization
import Testing

@testable import Projections

/// What is particular to PostgreSQL: the read models' column types, where the tables go, the lock modes
/// that let queries read while a batch is being written, and messages without passwords.
@Suite(
    "PostgreSQL read models",
    .enabled(if: !PostgresProjectionsServer.skipped, Comment(rawValue: PostgresProjectionsServer.skipReason)))
struct PostgresReadModelTests {
    @Test("every read-model column on PostgreSQL has its SQLite twin's type, texts compared as bytes")
    func everyColumnHasItsSQLiteTwinsType() throws {
        var generator = LegalLogGenerator(seed: 9)
        let log = generator.log(transactions: 20, digitizations: 20)
        let url = try PostgresProjectionsServer.freshURL()
        let sqlite = try TemporaryDatabase()
        defer { sqlite.remove() }
        for location in [url, sqlite.location] {
            let engine = try ProjectionEngine(journal: location, source: ArrayEventSource(log))
            try engine.catchUp()
            engine.close()
        }
        /// (table, column, type) of every read-model column, sorted.
        func columns(_ location: String, _ sql: String) throws -> [[String]] {
            let db = try ProjectionDatabase(location: location)
            defer { db.close() }
            let st = try db.statement(sql)
            var rows: [[String]] = []
            while try st.step() { rows.append((0..<3).map { st.optionalText($0) ?? "" }) }
            return rows.sorted { $0.lexicographicallyPrecedes($1) }
        }
        let onSQLite = try columns(
            sqlite.location,
            """
            SELECT m.name, c.name, c.type FROM sqlite_master m JOIN pragma_table_info(m.name) c
            WHERE m.type = 'table' AND m.name LIKE 'pj%'
            """)
        let onPostgres = try columns(
            url,
            """
            SELECT table_name, column_name, data_type || coalesce(' COLLATE ' || collation_name, '')
            FROM information_schema.columns WHERE table_schema = current_schema() AND table_name LIKE 'pj%'
            """)
        let twins = ["INTEGER": "bigint", "TEXT": "text COLLATE C"]
        #expect(onSQLite.count > 100)
        let models: [any ProjectionModel] = [
            EventClockProjection(), ThreeDSProjection(), CardProjection(), StreamsProjection()
        ]
        #expect(Set(onSQLite.map { $0[0] }).count == 1 + models.flatMap { $0.tableNames(generation: 1) }.count)
        #expect(onPostgres == onSQLite.map { [$0[0], $0[1], twins[$0[2]] ?? "no twin for \($0[2])"] })
    }

    @Test func runsOfOneInsertBecomeMultiRowInsertsThatNeverUpdateARowTwice() throws {
        let single = "INSERT INTO c(k, n) VALUES($1, $2)\n  ON CONFLICT(k) DO UPDATE SET n = c.n + excluded.n"
        let insert = try #require(PostgresMultiRowInsert(single))
        #expect(
            insert.sql(rows: 2)
                == "INSERT INTO c(k, n) VALUES ($1, $2), ($3, $4) ON CONFLICT(k) DO UPDATE SET n = c.n + excluded.n")
        // 123 distinct keys: 100 + 10 + 10 + three single rows, in order.
        let rows = (0..<123).map { PostgresStatement(single, [.text("k\($0)"), .int64(Int64($0))]) }
        var texts: [Int: String] = [:]
        let statements = insert.coalesce(rows[...], texts: &texts)
        #expect(statements.map { $0.parameters.count } == [200, 20, 20, 2, 2, 2])
        #expect(statements.flatMap(\.parameters).count == 246)
        // A repeated key starts a new statement.
        let repeated = (0..<30).map { PostgresStatement(single, [.text("k\($0 == 15 ? 3 : $0)"), .int64(1)]) }
        #expect(
            insert.coalesce(repeated[...], texts: &texts).map { $0.parameters.count }
                == [20, 2, 2, 2, 2, 2, 20, 2, 2, 2, 2, 2])
        #expect(PostgresMultiRowInsert("INSERT INTO c(k, n) SELECT $1, $2") == nil)
        #expect(PostgresMultiRowInsert("INSERT INTO c(k, n) VALUES($1, 'x')") == nil)
        #expect(PostgresMultiRowInsert("UPDATE c SET n = $1") == nil)
    }

    @Test func theReadModelsAreTablesOfTheJournalsSchema() throws {
        let url = try PostgresProjectionsServer.freshURL()
        var generator = LegalLogGenerator(seed: 5)
        let log = generator.log(transactions: 10, digitizations: 10)
        let engine = try ProjectionEngine(journal: url, source: ArrayEventSource(log))
        defer { engine.close() }
        try engine.catchUp()
        let pg = try PostgresConnection(url)
        let tables = try pg.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")
        let names = (0..<tables.rowCount).map { tables.text($0, 0) }
        #expect(names.contains("pj_meta"))
        #expect(names.contains("pj_3ds_stream_g1"))
        #expect(names.contains("pj_card_fact_g1"))
        #expect(names.contains("pj_streams_g1"))
        #expect(names.contains("pj_streams_corr_g1"))
        let meta = try pg.query(
            "SELECT count(*) FROM pj_meta WHERE generation = 1 AND checkpoint = $1",
            [.int64(Int64(log.count))])
        #expect(meta.int64(0, 0) == 4)
        // Text columns compare bytes, as in SQLite ('Z' < 'a' < '|' < '}').
        let collation = try pg.query(
            """
            SELECT collation_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = 'pj_meta' AND column_name = 'name'
            """)
        #expect(collation.text(0, 0) == "C")
    }

    @Test("rates and their buckets are the same on PostgreSQL as on SQLite, old card models rebuilt")
    func ratesAndBucketsMatchSQLite() throws {
        var generator = LegalLogGenerator(seed: 23)
        let log = generator.log(transactions: 80, digitizations: 80)
        let url = try PostgresProjectionsServer.freshURL()
        let sqlite = try TemporaryDatabase()
        defer { sqlite.remove() }
        let onPostgres = try ProjectionEngine(journal: url, source: ArrayEventSource(log))
        defer { onPostgres.close() }
        let onSQLite = try ProjectionEngine(journal: sqlite.location, source: ArrayEventSource(log))
        defer { onSQLite.close() }
        onPostgres.batchSize = 37
        let hour = Timestamp(millisecondsSinceEpoch: LegalLogGenerator.base + 5 * 3_600_000 + 1)
        for window in [
            QueryWindow.all, QueryWindow(since: hour),
            QueryWindow(since: hour, until: hour.adding(milliseconds: 7_199_998))
        ] {
            #expect(try onPostgres.rates(window) == onSQLite.rates(window), "\(window)")
            for every in [BucketWidth.hour, .quarterHour] {
                let a = try onPostgres.run(.rates, window: window, every: every)
                let b = try onSQLite.run(.rates, window: window, every: every)
                #expect(a.json == b.json && a.text == b.text && a.csv == b.csv, "\(window) \(every.rawValue)")
            }
        }
        #expect(try onPostgres.rates() == RatesReference(ArrayEventSource(log)).rates(.all))
        // A card model of the previous code version (10) is rebuilt before the next query.
        let pg = try PostgresConnection(url)
        _ = try pg.query("UPDATE pj_meta SET version = 10 WHERE name = 'card'")
        let reopened = try ProjectionEngine(journal: url, source: ArrayEventSource(log))
        defer { reopened.close() }
        #expect(try reopened.rates() == onSQLite.rates())
        let meta = try pg.query("SELECT version, generation FROM pj_meta WHERE name = 'card'")
        #expect(meta.int64(0, 0) == 11)
        #expect(meta.int64(0, 1) == 2)
    }

    @Test func aQueryReadsItsSnapshotWhileAnotherSessionHoldsABatchOpen() throws {
        let url = try PostgresProjectionsServer.freshURL()
        var generator = LegalLogGenerator(seed: 6)
        let log = generator.log(transactions: 20, digitizations: 20)
        let writer = try ProjectionEngine(journal: url, source: ArrayEventSource(Array(log.prefix(200))))
        defer { writer.close() }
        try writer.catchUp()
        let expected = try writer.otp()
        let answered = Mutex<Result<OTPReport, any Error>?>(nil)
        // The writer holds the writers' lock (an open batch); a reader in another session
        // answers from the committed state meanwhile instead of waiting.
        try writer.db.transaction { () throws(ProjectionError) in
            try writer.db.execute("UPDATE pj_meta SET checkpoint = checkpoint WHERE name = '3ds'")
            DispatchQueue.global().sync {
                let result: Result<OTPReport, any Error>
                do {
                    let reader = try ProjectionEngine(journal: url, source: ArrayEventSource(Array(log.prefix(200))))
                    defer { reader.close() }
                    result = .success(
                        try reader.db.readTransaction { () throws(ProjectionError) in
                            try reader.otpReport(.all)
                        })
                } catch {
                    result = .failure(error)
                }
                answered.withLock { $0 = result }
            }
        }
        #expect(try answered.withLock { $0 }?.get() == expected)
    }

    @Test func aSecondWriterWaitsForTheFirstAndGivesUpAsBusy() throws {
        let url = try PostgresProjectionsServer.freshURL()
        let first = try ProjectionEngine(journal: url, source: ArrayEventSource())
        defer { first.close() }
        let outcome = Mutex<String?>(nil)
        try first.db.transaction { () throws(ProjectionError) in
            DispatchQueue.global().sync {
                do {
                    let second = try ProjectionEngine(journal: url, source: ArrayEventSource())
                    defer { second.close() }
                    try second.db.execute("SET lock_timeout = '300ms'")
                    try second.db.transaction { () throws(ProjectionError) in }
                    outcome.withLock { $0 = "the second writer did not wait" }
                } catch {
                    outcome.withLock { $0 = (error as? ProjectionError).map { "\($0.code)" } ?? "\(error)" }
                }
            }
        }
        #expect(outcome.withLock { $0 } == "busy")
        // Once the first has committed, the second gets the lock.
        let second = try ProjectionEngine(journal: url, source: ArrayEventSource())
        defer { second.close() }
        try second.db.transaction { () throws(ProjectionError) in }
    }

    @Test func aServerThatCannotBeReachedIsAnErrorWithoutThePassword() {
        do {
            _ = try ProjectionEngine(
                journal: "postgres://app:s3cr3t-pw@127.0.0.1:1/journal", source: ArrayEventSource())
            Issue.record("opened an unreachable server")
        } catch {
            #expect(error.code == .database)
            #expect(!error.message.contains("s3cr3t-pw"))
            #expect(error.message.contains("app:***@127.0.0.1:1"))
        }
    }
}
