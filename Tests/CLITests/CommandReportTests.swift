import EventStore
import JournalApp
import JournalCore
import Simulator
import Testing

/// The application layer's reports without the command line: what `replay`, `verify`,
/// `simulate` and `demo` print is made in JournalApp, and is the same made in process.
@Suite("command reports in process")
struct CommandReportTests {
    func journal() throws -> (JournalRunner, SQLiteEventStore) {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.events(atLeast: 60))
        return (runner, try SQLiteEventStore(path: runner.database))
    }

    @Test func replayingEveryStreamInProcessPrintsWhatTheExecutablePrints() throws {
        let (runner, store) = try journal()
        let summary = try ReplaySummary.replayAll(store, untilPosition: .max) { _ in nil }
        #expect(summary.failure == nil)
        #expect(summary.events >= 60)
        #expect(summary.textLines() == (try runner.run(["replay", "--all"])).stdoutLines)
    }

    @Test func oneStreamsListingInProcessPrintsWhatTheExecutablePrints() throws {
        let (runner, store) = try journal()
        let stream = try #require(try store.streams(category: nil).first)
        let listing = try StreamReplayListing(stream, in: store, untilPosition: .max, format: .text)
        #expect(listing.failure == nil)
        #expect(listing.textLines() == (try runner.run(["replay", stream.rawValue])).stdoutLines)
    }

    @Test func verifyingAnIntactJournalReportsItsEventsAndNoFailure() throws {
        let (_, store) = try journal()
        let verification = try JournalVerification(store) { _ in nil }
        #expect(verification.failure == nil)
        guard case let .object(object) = verification.json() else {
            Issue.record("not an object")
            return
        }
        #expect(object["ok"] == .bool(true))
        #expect(object["events"] == .number(JSONNumber(try store.headPosition())))
    }

    @Test func theDefaultProfileIsTheRealisticOneAndAMissingProfileFileIsAUsageError() throws {
        #expect(try SimulateRun.profile(named: nil, file: nil).name == WorkloadProfile.realistic.name)
        let runner = try JournalRunner()
        do {
            _ = try SimulateRun.profile(named: nil, file: runner.path("absent.json"))
            Issue.record("a missing profile file was accepted")
        } catch {
            #expect(error.status == .usage)
        }
    }

    @Test func theDemoRefusesAJournalThatExistsAndAPostgreSQLURL() throws {
        let runner = try JournalRunner()
        let existing = try runner.write("old.db", "")
        for given in [existing, "postgres://localhost/journal"] {
            do {
                _ = try DemoScript.freshJournalPath(given)
                Issue.record("\(given) was accepted")
            } catch {
                #expect(error.status == .failure)
            }
        }
        #expect(try DemoScript.freshJournalPath(runner.path("new.db")) == runner.path("new.db"))
    }
}
