import Foundation
import Testing

@Suite("journal import (end to end)")
struct ImportEndToEndTests {
    @Test func importsLegalEventsAndPrintsASummary() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let lines = events.challenged(1) + events.yellowOTP(2)
        let result = try runner.run(["import", try runner.ndjson("in.ndjson", lines)])
        #expect(result.status == 0)
        #expect(result.stdout == "imported 17 lines: 17 appended, 0 duplicates, 0 rejected\n")
        #expect(result.stderr.isEmpty)
        #expect(try runner.exportedObjects().count == 17)
    }

    @Test func reimportingTheSameFileAddsNothingAndSaysSo() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let path = try runner.ndjson("in.ndjson", events.challenged(1) + events.green(2))
        #expect(try runner.run(["import", path]).status == 0)
        let again = try runner.run(["import", path, "--format", "json"])
        #expect(again.status == 0)
        #expect(again.stdout == #"{"lines":13,"appended":0,"duplicates":13,"rejected":0,"written":true}"# + "\n")
        let text = try runner.run(["import", path])
        #expect(text.stdout == "nothing new: 13 lines read, 13 duplicates already in the journal\n")
        #expect(try runner.exportedObjects().count == 13)
    }

    @Test func aDuplicateIsComparedAsJSONValuesNotAsText() throws {
        let runner = try JournalRunner()
        let id = "0d1e2f30-4152-4637-8899-aabbccddeeff"
        let stream = LegalEvents.cardStream(9)
        let first =
            #"{"id":"\#(id)","stream":"\#(stream)","type":"EligibilityChecked","occurredAt":"2026-11-29T10:00:00.000Z""#
            + #","data":{"inputMethod":"manual","outcome":"eligible","score":1.50},"meta":{}}"#
        let sameValues = #"""
            {"data":{"score":15e-1,"outcome":"eligible","inputMethod":"manual"},\#
            "occurredAt":"2026-11-29T10:00:00.000Z","type":"EligibilityChecked","stream":"\#(stream)","id":"\#(id)"}
            """#
        let otherValue =
            #"{"id":"\#(id)","stream":"\#(stream)","type":"EligibilityChecked","occurredAt":"2026-11-29T10:00:00.000Z""#
            + #","data":{"inputMethod":"bankApp","outcome":"eligible","score":1.50}}"#
        let result = try runner.run(["import", try runner.ndjson("in.ndjson", [first, sameValues, otherValue])])
        #expect(result.status == 3)
        #expect(
            result.stderrLines.first
                == "error: line 3: \(stream) EligibilityChecked: id \(id) is already used by another event (position "
                + "1, \(stream) EligibilityChecked): data.inputMethod differs"
        )
        let withRejects = try runner.run([
            "import", try runner.ndjson("in.ndjson", [first, sameValues, otherValue]),
            "--rejects", runner.path("rejects.ndjson"), "--format", "json"
        ])
        #expect(
            withRejects.stdout.hasPrefix(
                #"{"lines":3,"appended":1,"duplicates":1,"rejected":1,"written":true,"#
                    + #""rejectsFile":"\#(runner.path("rejects.ndjson"))","errors":[{"line":3,"#
            ))
        // Numbers are kept as written.
        let exported = try runner.run(["export"]).stdout
        #expect(exported.contains(#""score":1.50"#))
    }

    @Test func everyInvalidLineIsReportedAndNothingIsWritten() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        var lines = events.frictionless(1)
        let stream = LegalEvents.threeDSStream(1)
        lines.insert("", at: 1) // a blank line still counts
        lines.insert("{not json", at: 3)
        lines.insert(
            #"{"id":"00000000-0000-4000-8000-0000000000aa","stream":"\#(stream)","type":"TransactionClosed","#
                + #""occuredAt":"2026-11-29T10:00:00.000Z","data":{}}"#,
            at: 4)
        lines.insert(
            #"{"id":"00000000-0000-4000-8000-0000000000ab","stream":"\#(stream)","type":"TransactionClosed","#
                + #""occurredAt":"2026-11-29 10:00:00","data":{}}"#,
            at: 5)
        let path = try runner.ndjson("in.ndjson", lines)
        let result = try runner.run(["import", path])
        #expect(result.status == 3)
        #expect(
            result.stderrLines == [
                "error: line 4: - -: invalid JSON at byte 2: unexpected character 'n', expected an object key",
                "error: line 5: \(stream) TransactionClosed: occuredAt: unknown top-level key (expected id, stream, "
                    + "type, occurredAt, data, meta); did you mean \"occurredAt\"?",
                "error: line 6: \(stream) TransactionClosed: occurredAt: expected a UTC timestamp "
                    + "written as YYYY-MM-DDTHH:MM:SS.sssZ",
                "error: 3 of 8 lines rejected; nothing was written",
                "hint: fix those lines and import again, or pass --rejects FILE to append the valid events "
                    + "and set the invalid lines aside"
            ], "\(result.stderr)")
        #expect(result.stdout == "nothing written: 3 of 8 lines rejected (4 valid, 0 duplicates)\n")
        #expect(!runner.exists("journal.db"), "nothing kept into a new path leaves no file (spec §9)")
    }

    @Test func unreadableBytesAreRejectedLineByLine() throws {
        let runner = try JournalRunner()
        // A byte order mark that starts the file is skipped; one that starts another line is not.
        var bytes: [UInt8] = Array("{\"a\":\"".utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        bytes += [0xEF, 0xBB, 0xBF] + Array("{}\n".utf8)
        bytes += Array("{\"a\":1}".utf8) + [0x00] + Array("\n".utf8)
        bytes += Array("{\"a\":\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 2000) + Array("\"}\r\n".utf8)
        let path = try runner.write("in.ndjson", bytes: bytes)
        let result = try runner.run(["import", path, "--max-line-bytes", "1024", "--rejects", runner.path("r.ndjson")])
        #expect(result.status == 3)
        #expect(
            Array(result.stderrLines.prefix(4)) == [
                "error: line 1: - -: invalid UTF-8 at byte 7",
                "error: line 2: - -: starts with a UTF-8 byte order mark (save the file as UTF-8 without BOM)",
                "error: line 3: - -: NUL byte at byte 8",
                "error: line 4: - -: line longer than 1024 bytes"
            ])
        let rejects = try runner.read("r.ndjson").split(separator: "\n").map(String.init)
        #expect(rejects.count == 4)
        #expect(rejects[0] == #"{"line":1,"reason":"invalid UTF-8 at byte 7","input":"{\"a\":\"\#u{FFFD}(\"}"}"#)
        #expect(rejects[2] == #"{"line":3,"reason":"NUL byte at byte 8","input":"{\"a\":1}\u0000"}"#)
        #expect(rejects[3] == #"{"line":4,"reason":"line longer than 1024 bytes","input":null}"#)
    }

    @Test func aHundredThousandEventsWithOneBadLastLineWriteNothing() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        var lines = events.events(atLeast: 100_000)
        lines.append(
            #"{"id":"00000000-0000-4000-8000-00000000beef","stream":"3ds-not-a-uuid","type":"TransactionCreated","#
                + #""occurredAt":"2026-11-29T10:00:00.000Z","data":{}}"#
        )
        let path = try runner.ndjson("big.ndjson", lines)
        let result = try runner.run(["import", path])
        #expect(result.status == 3)
        #expect(
            result.stderrLines.first
                == "error: line \(lines.count): 3ds-not-a-uuid TransactionCreated: stream: a 3ds stream is "
                + "3ds-<sdkTransID>, a lowercase UUID"
        )
        #expect(
            result.stderrLines.dropFirst().first == "error: 1 of \(lines.count) lines rejected; nothing was written")
        // Nothing kept, into a path where no journal was: no file there (spec §9).
        #expect(!runner.exists("journal.db"))
        #expect(try runner.run(["verify"]).status == 1)
    }

    @Test func aHundredThousandEventsWithRejectsWriteAllButTheBadLine() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        var lines = events.events(atLeast: 100_000)
        let bad =
            #"{"id":"00000000-0000-4000-8000-00000000beef","stream":"3ds-not-a-uuid","type":"TransactionCreated","#
            + #""occurredAt":"2026-11-29T10:00:00.000Z","data":{}}"#
        lines.append(bad)
        let path = try runner.ndjson("big.ndjson", lines)
        let result = try runner.run(["import", path, "--rejects", runner.path("rejects.ndjson")])
        #expect(result.status == 3)
        #expect(
            result.stdout == "imported \(lines.count) lines: \(lines.count - 1) appended, 0 duplicates, 1 rejected\n")
        let reject =
            try JSONSerialization.jsonObject(with: Data(try runner.read("rejects.ndjson").utf8)) as? [String: Any]
        #expect(reject?["line"] as? Int == lines.count)
        #expect(reject?["input"] as? String == bad)
        #expect((reject?["reason"] as? String)?.hasPrefix("stream: a 3ds stream is") == true)
        let verify = try runner.run(["verify", "--format", "json"])
        #expect(verify.stdout.hasPrefix(#"{"ok":true,"events":\#(lines.count - 1),"#))
        // Re-importing is a no-op that says so.
        let again = try runner.run(["import", path, "--rejects", runner.path("rejects2.ndjson")])
        #expect(again.status == 3)
        #expect(
            again.stdout == "imported \(lines.count) lines: 0 appended, \(lines.count - 1) duplicates, 1 rejected\n")
    }

    @Test func theIDOfARejectedLineDoesNotCountAsSeen() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let good = events.green(3)
        // The first line again, misspelt: rejected; then the real line with the same id: appended.
        let misspelt = good[0].replacingOccurrences(of: "\"data\"", with: "\"dta\"")
        let path = try runner.ndjson("in.ndjson", [misspelt] + good)
        let result = try runner.run(["import", path, "--rejects", runner.path("r.ndjson")])
        #expect(result.status == 3)
        #expect(result.stdout == "imported 5 lines: 4 appended, 0 duplicates, 1 rejected\n")
    }

    @Test func readsStdinWithDash() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let result = try runner.run(["import", "-"], stdin: events.frictionless(4).joined(separator: "\n"))
        #expect(result.status == 0)
        #expect(result.stdout == "imported 4 lines: 4 appended, 0 duplicates, 0 rejected\n")
    }

    @Test func theJournalComesFromDbThenJOURNAL_DBThenTheCurrentFolder() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let path = try runner.ndjson("in.ndjson", events.frictionless(5))
        #expect(try runner.run(["import", path], db: false).status == 0)
        #expect(runner.exists("journal.db"))
        let fromEnv = try runner.run(["import", path], db: false, environment: ["JOURNAL_DB": runner.path("env.db")])
        #expect(fromEnv.stdout.hasPrefix("imported 4 lines: 4 appended"))
        #expect(runner.exists("env.db"))
        let explicit = try runner.run(
            ["import", path, "--db", runner.path("env.db")], db: false,
            environment: ["JOURNAL_DB": runner.path("other.db")])
        #expect(explicit.stdout.hasPrefix("nothing new"))
        #expect(!runner.exists("other.db"))
    }

    @Test func aWriterWaitingForTheLockBeyondItsTimeoutExits5() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let path = try runner.ndjson("in.ndjson", events.frictionless(6))
        // The journal exists (into a new path, stdin would go to a file of its own).
        #expect(try runner.run(["import", "/dev/null"]).status == 0)
        // A first import reads stdin inside its write transaction: it holds the lock until its
        // input ends.
        let holder = Process()
        holder.executableURL = JournalRunner.executable
        holder.arguments = ["import", "-", "--db", runner.database]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        // Wait until the holder has the lock: then a second writer with a short timeout fails.
        var result = try runner.run(["import", path], environment: ["JOURNAL_BUSY_TIMEOUT_MS": "50"])
        for _ in 0..<100 where result.status != 5 {
            usleep(50_000)
            result = try runner.run(["import", path], environment: ["JOURNAL_BUSY_TIMEOUT_MS": "50"])
        }
        #expect(result.status == 5)
        #expect(result.stderrLines.first?.hasPrefix("error: ") == true)
        #expect(result.stderrLines.last?.hasPrefix("hint: ") == true)
    }
}
