import Foundation
import Testing

/// Spec §9, "every reader sees a cut" and "read models answer only for the log they
/// folded", through the built executable on both backends: events deleted behind the journal's
/// back, its head row moved, a kept checkpoint the log no longer reaches, read models of another
/// log. Each reader exits 4 naming the first bad position; none prints a partial answer.
enum CutScenarios {
    /// Expects every command in `commands` to exit 4 with `position` named on stderr and nothing
    /// on stdout.
    static func expectEachExits4(
        _ journal: CutJournal, _ commands: [[String]], naming position: Int64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for command in commands {
            let result = try journal.run(command)
            #expect(result.status == 4, "\(command): \(result.status) \(result.stderr)", sourceLocation: sourceLocation)
            #expect(
                result.stderr.contains("position \(position)"), "\(command): \(result.stderr)",
                sourceLocation: sourceLocation)
            #expect(
                result.stdout.isEmpty, "\(command) printed \(result.stdout.prefix(200))",
                sourceLocation: sourceLocation)
        }
    }

    static func rowsDeletedAtTheEnd(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        try journal.delete(58...62)
        try expectEachExits4(
            journal,
            journal.readers(stream: CutJournal.stream(10)) + [
                ["verify"], ["checkpoint", "--key", journal.runner.path("j.key")]
            ], naming: 58)
    }

    static func rowsDeletedInTheMiddle(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        // 3ds-4 keeps versions 0…2 (17…19) and 8 (25).
        try journal.delete(20...24)
        let stream = CutJournal.stream(4)
        try expectEachExits4(
            journal, [["export"], ["replay", "--all"], ["query", "funnel"], ["verify"]], naming: 20)
        // A reader of the stream sees the versions missing where its next event is.
        try expectEachExits4(
            journal, [["audit", stream], ["state", stream], ["replay", stream], ["bundle", stream]], naming: 25)
    }

    static func aStreamsTailDeleted(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        // card-2's versions 5…7 (10…12); card-3 follows at 13.
        try journal.delete(10...12)
        try expectEachExits4(
            journal, [["export"], ["replay", "--all"], ["query", "funnel"], ["verify"]], naming: 10)
        // A reader of the stream stops short of the last event the journal recorded for it
        // (version 7, at 12): the position of the first one gone is not known.
        let stream = CutJournal.stream(2)
        try expectEachExits4(
            journal, [["audit", stream], ["state", stream], ["replay", stream], ["bundle", stream]], naming: 12)
        let audit = try journal.run(["audit", stream])
        #expect(audit.stderr.contains("versions 5 … 7 are gone"), "\(audit.stderr)")
    }

    static func aStreamsTailDeletedWithItsBookkeepingEditedToMatch(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        let stream = CutJournal.stream(2)
        try journal.delete(10...12)
        try journal.sql([
            "UPDATE journal_streams SET last_version = 4, last_position = 9 WHERE name = '\(stream)'"
        ])
        // The stream now reads as whole: only the walk of the log sees the gap.
        for command in [["audit", stream], ["state", stream], ["replay", stream], ["bundle", stream]] {
            let result = try journal.run(command)
            #expect(result.status == 0, "\(command): \(result.status) \(result.stderr)")
        }
        try expectEachExits4(journal, [["verify"]], naming: 10)
    }

    static func aStreamsBookkeepingEdited(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        let stream = CutJournal.stream(2)
        try journal.sql([
            "UPDATE journal_streams SET last_version = 6, last_position = 11 WHERE name = '\(stream)'"
        ])
        // Every event is there: readers are right to show them, verify names the stream's last.
        #expect(try journal.run(["audit", stream]).status == 0)
        try expectEachExits4(journal, [["verify"]], naming: 12)
    }

    /// The log's last events deleted with the head, the tree and the kept checkpoints cut to
    /// match: only the streams' recorded ends still show it (card-10 recorded 7 at 62).
    static func theLogCutAtItsEndWithEverythingButTheStreamsToMatch(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        try journal.delete(58...62)
        try journal.lowerHead(to: 57)
        try journal.cutTree(to: 57)
        try journal.sql(["DELETE FROM journal_checkpoints"])
        let stream = CutJournal.stream(10)
        try expectEachExits4(journal, [["audit", stream], ["state", stream], ["replay", stream]], naming: 62)
        try expectEachExits4(journal, [["verify"]], naming: 58)
        // Streams the cut did not reach read as they are.
        let untouched = try journal.run(["audit", CutJournal.stream(9)])
        #expect(untouched.status == 0, "\(untouched.stderr)")
    }

    static func headRowLowered(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        try journal.lowerHead(to: 57)
        try expectEachExits4(journal, journal.readers(stream: CutJournal.stream(10)) + [["verify"]], naming: 58)
    }

    static func rowsDeletedAndHeadLowered(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        try journal.delete(58...62)
        try journal.lowerHead(to: 57)
        try expectEachExits4(journal, journal.readers(stream: CutJournal.stream(9)) + [["verify"]], naming: 58)
    }

    static func keptCheckpointLargerThanTheLog(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        try journal.delete(58...62)
        try journal.lowerHead(to: 57)
        try journal.cutTree(to: 57)
        // Only the kept checkpoint (62 events) still shows the cut.
        try expectEachExits4(journal, journal.readers(stream: CutJournal.stream(9)) + [["verify"]], naming: 58)
        let prove = try journal.run(["prove", "60"])
        #expect(prove.status == 4, "\(prove.stderr)")
    }

    static func keptCheckpointWhoseRootTheLogNoLongerHas(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        try journal.flipFirstLeaf()
        try expectEachExits4(journal, journal.readers(stream: CutJournal.stream(1)), naming: 62)
        let verify = try journal.run(["verify"])
        #expect(verify.status == 4, "\(verify.stderr)")
    }

    static func oneByteChangedAfterTheReadModelsWereBuilt(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        let before = try journal.run(["query", "funnel", "--format", "json"])
        #expect(before.status == 0, "\(before.stderr)")
        try journal.sql(["UPDATE journal_events SET occurred_at = occurred_at + 1 WHERE position = 62"])
        try expectEachExits4(
            journal,
            [
                ["query", "funnel"], ["find", "--category", "card"], ["project", "--status"],
                ["report", "--out", journal.runner.path("report.html")]
            ], naming: 62)
    }

    static func readModelsOfAnotherLog(postgres: Bool) throws {
        let journal = try CutJournal(postgres: postgres)
        let models = journal.runner.path("models.db")
        #expect(try journal.run(["query", "funnel", "--models", models]).status == 0)
        // Another journal, one event longer: not the log the models folded.
        let other = try CutJournal(postgres: postgres, first: [LegalEventsShifted.line()])
        let answer = try other.run(["query", "funnel", "--models", models])
        #expect(answer.status == 4, "\(answer.stderr)")
        #expect(answer.stderr.contains("position 62"), "\(answer.stderr)")
        #expect(answer.stdout.isEmpty)
    }
}

/// One event that no `LegalEvents` journal has, to make a journal differ from another.
enum LegalEventsShifted {
    static func line() -> String {
        #"{"id":"0ddba11a-0000-4000-8000-000000000001","stream":"card-0ddba11a-0000-4000-8000-000000000001","#
            + #""type":"EligibilityChecked","occurredAt":"2026-12-03T12:00:00.000Z","#
            + #""data":{"inputMethod":"manual","outcome":"eligible"}}"#
    }
}

@Suite("Cuts on SQLite (end to end)")
struct CutsEndToEndTests {
    @Test func everyReaderExits4WhenTheLastEventsAreDeleted() throws {
        try CutScenarios.rowsDeletedAtTheEnd(postgres: false)
    }

    @Test func everyReaderOfTheGapExits4WhenEventsInTheMiddleAreDeleted() throws {
        try CutScenarios.rowsDeletedInTheMiddle(postgres: false)
    }

    @Test func everyReaderOfTheStreamExits4WhenItsLastEventsAreDeletedFromTheMiddle() throws {
        try CutScenarios.aStreamsTailDeleted(postgres: false)
    }

    @Test func verifyExits4WhenAStreamIsCutBackWithItsBookkeepingEditedToMatch() throws {
        try CutScenarios.aStreamsTailDeletedWithItsBookkeepingEditedToMatch(postgres: false)
    }

    @Test func verifyExits4WhenAStreamsBookkeepingIsEdited() throws {
        try CutScenarios.aStreamsBookkeepingEdited(postgres: false)
    }

    @Test func theStreamsRecordedEndsShowALogCutAtItsEndWithItsHeadTreeAndCheckpointsToMatch() throws {
        try CutScenarios.theLogCutAtItsEndWithEverythingButTheStreamsToMatch(postgres: false)
    }

    @Test func everyReaderExits4WhenTheHeadRowIsLowered() throws {
        try CutScenarios.headRowLowered(postgres: false)
    }

    @Test func everyReaderExits4WhenTheLastEventsAreDeletedAndTheHeadLowered() throws {
        try CutScenarios.rowsDeletedAndHeadLowered(postgres: false)
    }

    @Test func everyReaderAndProveExit4WhenAKeptCheckpointIsLargerThanTheLog() throws {
        try CutScenarios.keptCheckpointLargerThanTheLog(postgres: false)
    }

    @Test func everyReaderExits4WhenTheTreeNoLongerHasTheRootOfAKeptCheckpoint() throws {
        try CutScenarios.keptCheckpointWhoseRootTheLogNoLongerHas(postgres: false)
    }

    @Test func readModelsDoNotAnswerAfterTheLastEventTheyFoldedChanged() throws {
        try CutScenarios.oneByteChangedAfterTheReadModelsWereBuilt(postgres: false)
    }

    @Test func readModelsDoNotAnswerForAnotherLog() throws {
        try CutScenarios.readModelsOfAnotherLog(postgres: false)
    }

    @Test func everyServeRouteThatReadsAnswersAnErrorNamingTheFirstMissingPosition() throws {
        let journal = try CutJournal(postgres: false)
        try journal.delete(58...62)
        let server = try ServeProcess(journal.runner)
        defer { server.stop() }
        let stream = CutJournal.stream(10)
        for path in [
            "/v1/streams/\(stream)", "/v1/events?from=1", "/v1/query/funnel", "/v1/find?category=card",
            "/v1/bundle/\(stream)", "/v1/proof/1", "/v1/checkpoint", "/"
        ] {
            let reply = try server.request("GET", path)
            #expect(reply.status == 500, "\(path): \(reply.status) \(reply.body.prefix(200))")
            #expect(reply.body.contains("position 58"), "\(path): \(reply.body.prefix(300))")
        }
        #expect(try server.request("GET", "/healthz").status == 200)
    }
}

@Suite(
    "Cuts on PostgreSQL (end to end)",
    .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
struct PostgresCutsEndToEndTests {
    @Test func everyReaderExits4WhenTheLastEventsAreDeleted() throws {
        try CutScenarios.rowsDeletedAtTheEnd(postgres: true)
    }

    @Test func everyReaderOfTheGapExits4WhenEventsInTheMiddleAreDeleted() throws {
        try CutScenarios.rowsDeletedInTheMiddle(postgres: true)
    }

    @Test func everyReaderOfTheStreamExits4WhenItsLastEventsAreDeletedFromTheMiddle() throws {
        try CutScenarios.aStreamsTailDeleted(postgres: true)
    }

    @Test func verifyExits4WhenAStreamIsCutBackWithItsBookkeepingEditedToMatch() throws {
        try CutScenarios.aStreamsTailDeletedWithItsBookkeepingEditedToMatch(postgres: true)
    }

    @Test func verifyExits4WhenAStreamsBookkeepingIsEdited() throws {
        try CutScenarios.aStreamsBookkeepingEdited(postgres: true)
    }

    @Test func theStreamsRecordedEndsShowALogCutAtItsEndWithItsHeadTreeAndCheckpointsToMatch() throws {
        try CutScenarios.theLogCutAtItsEndWithEverythingButTheStreamsToMatch(postgres: true)
    }

    @Test func everyReaderExits4WhenTheHeadRowIsLowered() throws {
        try CutScenarios.headRowLowered(postgres: true)
    }

    @Test func everyReaderExits4WhenTheLastEventsAreDeletedAndTheHeadLowered() throws {
        try CutScenarios.rowsDeletedAndHeadLowered(postgres: true)
    }

    @Test func everyReaderAndProveExit4WhenAKeptCheckpointIsLargerThanTheLog() throws {
        try CutScenarios.keptCheckpointLargerThanTheLog(postgres: true)
    }

    @Test func everyReaderExits4WhenTheTreeNoLongerHasTheRootOfAKeptCheckpoint() throws {
        try CutScenarios.keptCheckpointWhoseRootTheLogNoLongerHas(postgres: true)
    }

    @Test func readModelsDoNotAnswerAfterTheLastEventTheyFoldedChanged() throws {
        try CutScenarios.oneByteChangedAfterTheReadModelsWereBuilt(postgres: true)
    }

    @Test func readModelsDoNotAnswerForAnotherLog() throws {
        try CutScenarios.readModelsOfAnotherLog(postgres: true)
    }
}
