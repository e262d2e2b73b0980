import Foundation
import JournalKit
import Testing

/// The embedding front door (`JournalKit.Journal`) on both backends, checked against the
/// `journal` executable: the same validation as `journal import`, the same state, query JSON and
/// evidence as the commands.
@Suite("JournalKit front door")
struct JournalKitEndToEndTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// A fresh journal location of `backend` (nil: PostgreSQL is skipped in this local run).
    static func location(_ backend: Backend, _ runner: JournalRunner, name: String = "journal.db") throws -> String? {
        switch backend {
        case .sqlite: return runner.path(name)
        case .postgres: return PostgresCLIServer.skipped ? nil : try PostgresCLIServer.freshURL()
        }
    }

    static let clock: @Sendable () -> Timestamp = { Timestamp(millisecondsSinceEpoch: 1_796_400_000_000) }

    @Test(arguments: Backend.allCases)
    func appendsThenReadsStateQueriesProvesAndBundlesAsTheCommandsDo(_ backend: Backend) throws {
        let runner = try JournalRunner()
        guard let location = try Self.location(backend, runner) else { return }
        let journal = try Journal(opening: location, clock: Self.clock)
        var legal = LegalEvents()
        let lines = legal.challenged(1) + legal.frictionless(2)
        let stream = LegalEvents.threeDSStream(1)

        let first = try journal.append(ndjson: lines.joined(separator: "\n") + "\n")
        #expect(first == Journal.AppendSummary(lines: 13, appended: 13, duplicates: 0, lastPosition: 13))
        let again = try journal.append(ndjson: lines.joined(separator: "\n"))
        #expect(again == Journal.AppendSummary(lines: 13, appended: 0, duplicates: 13, lastPosition: nil))
        #expect(try journal.events(from: 1, limit: 100).map(\.position) == Array(1...13))

        let state = try journal.state(of: stream)
        let cliState = try runner.run(["state", stream, "--format", "json", "--db", location], db: false)
        #expect(cliState.status == 0)
        #expect(cliState.stdoutLines == [state.json])
        #expect(state.state["status"]?.stringValue == "ended")
        #expect(try journal.replay(stream).map(\.event.version) == Array(0...8))

        let query = try journal.query("funnel")
        let cliQuery = try runner.run(["query", "funnel", "--format", "json", "--db", location], db: false)
        #expect(cliQuery.stdoutLines == [query])

        let keygen = try runner.run(["keygen", "payments.example/journal", "--out", runner.path("key")], db: false)
        #expect(keygen.status == 0)
        let verifierKey = keygen.stdout.trimmingCharacters(in: .newlines)
        let checkpoint = try journal.checkpoint(keyFile: runner.path("key"))
        #expect(checkpoint.size == 13)
        let proof = try journal.prove(position: 9)
        try proof.verify(with: [NoteVerifier(parsing: verifierKey)])
        let bundle = try journal.bundle(of: stream)
        let verified = try Journal.checkBundle(Array(bundle.jsonText.utf8), verifierKeys: verifierKey)
        #expect(verified.events.count == 9)
        let file = try runner.write("bundle.json", bundle.jsonText)
        #expect(try runner.run(["check", file, "--key", verifierKey], db: false).status == 0)

        // One changed byte of an event: the bundle no longer checks (exit 4, as `journal check`).
        let tampered = bundle.jsonText.replacingOccurrences(
            of: #"\"transStatus\":\"Y\""#, with: #"\"transStatus\":\"N\""#)
        #expect(tampered != bundle.jsonText)
        let error = #expect(throws: JournalError.self) {
            try Journal.checkBundle(Array(tampered.utf8), verifierKeys: verifierKey)
        }
        #expect(error?.status == .integrity)
    }

    @Test(arguments: Backend.allCases)
    func aRuleViolationAndAGuardRejectionAreTheErrorsOfImportAndNothingIsWritten(_ backend: Backend) throws {
        let runner = try JournalRunner()
        guard let embedded = try Self.location(backend, runner, name: "embedded.db"),
            let imported = try Self.location(backend, runner, name: "imported.db")
        else { return }
        var legal = LegalEvents()
        let valid = legal.frictionless(1)
        // AuthResponseReceived right after TransactionCreated (3ds.auth-response), and a
        // forbidden key in meta (the sensitive-data guard).
        let lines = [
            valid[0], valid[2],
            legal.line(
                LegalEvents.threeDSStream(2), "TransactionCreated",
                #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#, meta: #"{"otp":"123456"}"#),
            valid[1]
        ]
        let input = lines.joined(separator: "\n") + "\n"

        let journal = try Journal(opening: embedded, clock: Self.clock)
        let error = #expect(throws: JournalError.self) { try journal.append(ndjson: input) }
        let cli = try runner.run(["import", try runner.write("input.ndjson", input), "--db", imported], db: false)

        #expect(error?.status == .inputRejected)
        #expect(error?.exitCode == cli.status)
        #expect(error?.rejections.map(\.rule) == ["3ds.auth-response", "sensitive-data"])
        #expect(error?.rejections.map(\.line) == [2, 3])
        #expect(
            error?.messages == cli.stderrLines.filter { $0.hasPrefix("error: ") }.map { String($0.dropFirst(7)) })
        #expect(!(error?.description.contains("123456") ?? true))
        #expect(try journal.events().isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func typedEventsAreCheckedLikeLinesAndAnExpectedVersionHoldsOnlyForNewEvents(_ backend: Backend) throws {
        let runner = try JournalRunner()
        guard let location = try Self.location(backend, runner) else { return }
        let journal = try Journal(opening: location, clock: Self.clock)
        let stream = LegalEvents.threeDSStream(7)
        let created = Journal.NewEvent(
            id: LegalEvents.uuid(1), stream: stream,
            occurredAt: Timestamp(millisecondsSinceEpoch: 1_796_292_000_000),
            event: .threeDS(
                .transactionCreated(.init(directoryServerID: "A000000003", messageVersion: .v2_2_0))))
        let closed = Journal.NewEvent(
            id: LegalEvents.uuid(2), stream: stream,
            occurredAt: Timestamp(millisecondsSinceEpoch: 1_796_292_001_000),
            event: .threeDS(.transactionClosed(.init())))

        try journal.append([created], expectedVersion: (stream, .noStream))
        // A retry of the same event is a duplicate: the expected version is not checked again.
        #expect(try journal.append([created], expectedVersion: (stream, .noStream)).duplicates == 1)
        let conflict = #expect(throws: JournalError.self) {
            try journal.append([closed], expectedVersion: (stream, .noStream))
        }
        #expect(conflict?.status == .conflict)
        // A second TransactionCreated breaks the stream's rules (3ds.created-once).
        var createdAgain = created
        createdAgain.id = LegalEvents.uuid(3)
        let rejected = #expect(throws: JournalError.self) {
            try journal.append([createdAgain], expectedVersion: (stream, .exact(0)))
        }
        #expect(rejected?.status == .inputRejected)
        #expect(rejected?.rejections.map(\.rule) == ["3ds.created-once"])
        #expect(rejected?.rejections.first?.line == 1)
        #expect(try journal.append([closed], expectedVersion: (stream, .exact(0))).appended == 1)
        #expect(try journal.events().count == 2)
    }

    @Test(.timeLimit(.minutes(1)), arguments: Backend.allCases)
    func followGivesTheStoredEventsThenEachNewCommit(_ backend: Backend) async throws {
        let runner = try JournalRunner()
        guard let location = try Self.location(backend, runner) else { return }
        let journal = try Journal(opening: location, clock: Self.clock)
        var legal = LegalEvents()
        let lines = legal.frictionless(1)
        try journal.append(ndjson: lines[0] + "\n" + lines[1])
        var positions: [Int64] = []
        for try await event in journal.follow(from: 1, pollInterval: .milliseconds(10)) {
            positions.append(event.position)
            // Committed after the follower reached the end of the log.
            if positions.count == 2 { try journal.append(ndjson: lines[2]) }
            if positions.count == 3 { break }
        }
        #expect(positions == [1, 2, 3])
    }
}
