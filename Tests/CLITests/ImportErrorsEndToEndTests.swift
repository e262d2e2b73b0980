import Foundation
import Testing

/// How `journal import` reports invalid input: masked (nothing the journal refuses to store
/// reaches the rejects file, stderr or the JSON report), bounded (the first 100 errors and a
/// count per rule), and helpful (not NDJSON, did you mean, not a valid date, which field differs).
@Suite("journal import errors (end to end)")
struct ImportErrorsEndToEndTests {
    static let pan = "4111111111111111"
    static let spacedPAN = "4111 1111 1111 1111"
    static let otp = "918273"

    /// A line of `stream` with `data` (raw JSON text) and an id made from `n`.
    static func line(
        _ n: Int, stream: String = LegalEvents.cardStream(1), type: String = "EligibilityChecked",
        occurredAt: String = "2026-11-29T10:00:00.000Z",
        data: String = #"{"inputMethod":"manual","outcome":"eligible"}"#,
        extra: String = ""
    ) -> String {
        #"{"id":"\#(LegalEvents.uuid(n, prefix: "bad00000"))","stream":"\#(stream)","type":"\#(type)","#
            + #""occurredAt":"\#(occurredAt)","data":\#(data)\#(extra)}"#
    }

    /// Runs `journal ARGS` under `umask 022`, through the shell.
    func runWithUmask022(_ runner: JournalRunner, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            ["-c", #"umask 022 && exec "$0" "$@""#, JournalRunner.executable.path]
            + arguments + ["--db", runner.database]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("a PAN or an OTP never appears in the rejects file, on stderr or in the JSON report")
    func refusedValuesAreMaskedEverywhere() throws {
        let runner = try JournalRunner()
        let lines = [
            // The guard's own findings: a card number in a string, an OTP under a forbidden key,
            // a card number as an integer, deep inside meta.
            Self.line(
                1,
                data:
                    #"{"inputMethod":"manual","outcome":"eligible","#
                    + #""note":"card \#(Self.spacedPAN) declined","otp":"\#(Self.otp)"}"#
            ),
            Self.line(
                2, data: #"{"inputMethod":"manual","outcome":"eligible"}"#,
                extra: #","meta":{"items":[{"PAN":"\#(Self.pan)"},{"n":\#(Self.pan)}]}"#),
            // A line that is not JSON: every run of 13 to 19 digits, and an OTP after its key.
            #"{"id": "x", "data": {"otp": "\#(Self.otp)", "card": "\#(Self.spacedPAN)"#,
            "pan=\(Self.pan) and 4111-1111-1111-1111",
            // The value where no rule reads it: an unknown top-level key, a stream, a type.
            Self.line(5, extra: #","cardNumber":"\#(Self.pan)""#),
            Self.line(6, stream: "card-\(Self.pan)"),
            Self.line(7, type: "Pan \(Self.pan)"),
            // A refused value in a line that reuses an id with other content.
            Self.line(8, data: #"{"inputMethod":"manual","outcome":"eligible"}"#),
            Self.line(8, data: #"{"inputMethod":"manual","outcome":"eligible","cvv":"123","x":"\#(Self.pan)"}"#),
            Self.line(10, type: "Unknown")
        ]
        let input = try runner.ndjson("in.ndjson", lines)
        let text = try runner.run(["import", input, "--rejects", runner.path("rejects.ndjson")])
        #expect(text.status == 3)
        let json = try runner.run(["import", input, "--rejects", runner.path("rejects2.ndjson"), "--format", "json"])
        #expect(json.status == 3)
        let allOutput = [
            text.stdout, text.stderr, json.stdout, json.stderr,
            try runner.read("rejects.ndjson"), try runner.read("rejects2.ndjson")
        ]
        for output in allOutput {
            for secret in [Self.pan, Self.spacedPAN, Self.otp, "4111-1111-1111-1111", "\"123\""] {
                #expect(!output.contains(secret), "\(secret) in \(output)")
            }
        }
        let rejects = try runner.read("rejects.ndjson").split(separator: "\n").map(String.init)
        #expect(rejects.count == 9, "\(rejects)")
        // Each reject is {"line", "reason", "input"}, its input masked as spec §4 says.
        let objects = try rejects.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6, 7, 9, 10])
        let inputs = objects.map { $0["input"] as? String ?? "" }
        #expect(inputs[0].contains(#""note":"[redacted]","otp":"[redacted]""#), "\(inputs[0])")
        #expect(inputs[1].contains(#""meta":{"items":[{"PAN":"[redacted]"},{"n":"[redacted]"}]}"#), "\(inputs[1])")
        #expect(inputs[2] == #"{"id": "x", "data": {"otp": "[redacted]", "card": "[redacted]"#, "\(inputs[2])")
        #expect(inputs[3] == "pan=[redacted] and [redacted]")
        #expect(inputs[4].hasSuffix(#""cardNumber":"[redacted]"}"#), "\(inputs[4])")
        #expect(inputs[5].contains(#""stream":"[redacted]""#), "\(inputs[5])")
        #expect(inputs[6].contains(#""type":"[redacted]""#), "\(inputs[6])")
        #expect(inputs[7].contains(#""cvv":"[redacted]","x":"[redacted]""#), "\(inputs[7])")
        // A line without anything to mask is kept as it was.
        #expect(inputs[8] == lines[9])
        #expect(
            text.stderrLines.contains(
                "error: line 6: card-[redacted] EligibilityChecked: stream: a card stream "
                    + "is card-<digitizationID>, a UUID"
            ),
            "\(text.stderr)")
    }

    @Test("the rejects file is created with mode 0600, under umask 022 and over an existing 0644 file")
    func theRejectsFileIsPrivate() throws {
        let runner = try JournalRunner()
        let input = try runner.ndjson("in.ndjson", [Self.line(1, data: #"{"otp":"\#(Self.otp)"}"#)])
        #expect(try runWithUmask022(runner, ["import", input, "--rejects", runner.path("new.ndjson")]) == 3)
        #expect(try mode(runner.path("new.ndjson")) == 0o600)
        let existing = try runner.write("old.ndjson", "old\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: existing)
        #expect(try runWithUmask022(runner, ["import", input, "--rejects", existing]) == 3)
        #expect(try mode(existing) == 0o600)
        #expect(!(try runner.read("old.ndjson")).contains("old"))
    }

    @Test("50,000 bad lines print the first 100 errors, how many more, and a count per rule")
    func manyBadLinesPrintABoundedReport() throws {
        let runner = try JournalRunner()
        var lines: [String] = []
        for n in 1...50_000 {
            lines.append(n % 2 == 0 ? Self.line(n, occurredAt: "2026-11-29 10:00:00") : "{broken \(n)")
        }
        let input = try runner.ndjson("bad.ndjson", lines)
        let result = try runner.run(["import", input])
        #expect(result.status == 3)
        let errors = result.stderrLines
        #expect(errors.filter { $0.hasPrefix("error: line ") }.count == 100)
        #expect(errors.count <= 110, "\(errors.count) stderr lines")
        #expect(errors[0].hasPrefix("error: line 1: - -: invalid JSON"))
        #expect(
            errors[1]
                == "error: line 2: \(LegalEvents.cardStream(1)) EligibilityChecked: occurredAt: expected a UTC "
                + "timestamp written as YYYY-MM-DDTHH:MM:SS.sssZ"
        )
        #expect(
            Array(errors.dropFirst(100)) == [
                "error: 49900 more invalid lines not shown (the first 100 are above); by rule:",
                "error:   envelope.occurredAt: 25000 lines",
                "error:   json: 25000 lines",
                "error: 50000 of 50000 lines rejected; nothing was written",
                "hint: fix those lines and import again, or pass --rejects FILE to append the valid events "
                    + "and set the invalid lines aside"
            ], "\(errors.dropFirst(100))")
        #expect(result.stdout == "nothing written: 50000 of 50000 lines rejected (0 valid, 0 duplicates)\n")
    }

    @Test("--format json lists the errors with their rule, capped at 1000, and counts per rule")
    func jsonReportHasTheErrors() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        var lines = events.green(1)
        for n in 1...1_200 {
            lines.append(
                Self.line(n, stream: LegalEvents.cardStream(2), type: "TermsAccepted", data: #"{"tncDigest":"d"}"#))
        }
        lines.append("not json")
        let input = try runner.ndjson("in.ndjson", lines)
        let result = try runner.run(["import", input, "--format", "json"])
        #expect(result.status == 3)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(object["lines"] as? Int == lines.count)
        #expect(object["rejected"] as? Int == 1_201)
        #expect(object["written"] as? Bool == false)
        let errors = object["errors"] as? [[String: Any]] ?? []
        #expect(errors.count == 1_000)
        #expect(object["moreErrors"] as? Int == 201)
        #expect(errors.first?["line"] as? Int == 5)
        #expect(errors.first?["stream"] as? String == LegalEvents.cardStream(2))
        #expect(errors.first?["type"] as? String == "TermsAccepted")
        #expect(errors.first?["rule"] as? String == "card.first-event")
        #expect((errors.first?["reason"] as? String)?.isEmpty == false)
        #expect(object["byRule"] as? [String: Int] == ["card.first-event": 1_200, "json": 1])
        // Without errors the report keeps its keys and adds none.
        let clean = try runner.run(["import", try runner.ndjson("ok.ndjson", events.green(3)), "--format", "json"])
        #expect(clean.stdout == #"{"lines":4,"appended":4,"duplicates":0,"rejected":0,"written":true}"# + "\n")
    }

    @Test("a JSON array is reported once as not NDJSON, with the jq command that fixes it")
    func aJSONArrayIsNotNDJSON() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let lines = events.green(1)
        let input = try runner.write("events.json", "\n[\n" + lines.joined(separator: ",\n") + "\n]\n")
        let result = try runner.run(["import", input])
        #expect(result.status == 3)
        #expect(
            result.stderrLines == [
                "error: line 2: - -: the input is a JSON array, not NDJSON (one JSON object "
                    + "per line); nothing was written",
                "hint: make it one object per line first: jq -c '.[]' \(input) > "
                    + "\(input).ndjson; then import \(input).ndjson"
            ], "\(result.stderr)")
        #expect(result.stdout == "nothing written: the input is not NDJSON (see line 2)\n")
        #expect(!runner.exists("journal.db"), "nothing kept into a new path leaves no file (spec §9)")
        // On one line, too.
        let oneLine = try runner.write("one.json", "[" + lines.joined(separator: ",") + "]\n")
        let again = try runner.run(["import", oneLine, "--format", "json"])
        #expect(again.status == 3)
        #expect(
            again.stderrLines.first
                == "error: line 1: - -: the input is a JSON array, not NDJSON (one JSON object "
                + "per line); nothing was written"
        )
        #expect(again.stdout.contains(#""rule":"not-ndjson""#))
    }

    @Test("pretty-printed JSON is reported once as not NDJSON, with the jq command that fixes it")
    func prettyPrintedJSONIsNotNDJSON() throws {
        let runner = try JournalRunner()
        let pretty = """
            {
              "id": "\(LegalEvents.uuid(1))",
              "stream": "\(LegalEvents.cardStream(1))",
              "type": "EligibilityChecked",
              "occurredAt": "2026-11-29T10:00:00.000Z",
              "data": {"inputMethod": "manual", "outcome": "eligible"}
            }
            {
              "id": "\(LegalEvents.uuid(2))"
            }

            """
        let input = try runner.write("pretty.json", pretty)
        let result = try runner.run(["import", input, "--rejects", runner.path("r.ndjson")])
        #expect(result.status == 3)
        #expect(
            result.stderrLines == [
                "error: line 1: - -: the input is pretty-printed JSON (an object over several lines), not NDJSON (one "
                    + "JSON object per line); nothing was written",
                "hint: make it one object per line first: jq -c . \(input) > "
                    + "\(input).ndjson; then import \(input).ndjson"
            ], "\(result.stderr)")
        #expect(result.stdout == "nothing written: the input is not NDJSON (see line 1)\n")
        #expect(
            try runner.read("r.ndjson")
                == #"{"line":1,"reason":"the input is pretty-printed JSON (an object over several lines), not NDJSON "#
                + #"(one JSON object per line)","input":"{"}"#
                + "\n")
        #expect(!runner.exists("journal.db"), "nothing kept into a new path leaves no file (spec §9)")
        // An object whose first key shares the opening line: the same.
        let partial = try runner.write(
            "partial.json", "{\"id\": \"\(LegalEvents.uuid(1))\",\n  \"type\": \"EligibilityChecked\"\n}\n")
        let again = try runner.run(["import", partial])
        #expect(
            again.stderrLines.first
                == "error: line 1: - -: the input is pretty-printed JSON (an object over several lines), not NDJSON "
                + "(one JSON object per line); nothing was written"
        )
        // A single cut-off line is just an invalid line.
        let cut = try runner.write("cut.ndjson", "{\"id\": \"\(LegalEvents.uuid(1))\",\n")
        let third = try runner.run(["import", cut])
        #expect(third.stderrLines.first?.hasPrefix("error: line 1: - -: invalid JSON") == true)
    }

    @Test("a misspelt top-level key or event type gets the nearest known name suggested")
    func misspeltNamesGetASuggestion() throws {
        let runner = try JournalRunner()
        let stream = LegalEvents.cardStream(1)
        let lines = [
            Self.line(1).replacingOccurrences(of: "\"occurredAt\"", with: "\"occuredAt\""),
            Self.line(2).replacingOccurrences(of: "\"stream\"", with: "\"Stream\""),
            Self.line(3, type: "EligibiltyChecked"),
            Self.line(4, type: "eligibilitychecked"),
            Self.line(5, type: "SomethingElse"),
            Self.line(6, extra: #","xyz":1"#)
        ]
        let result = try runner.run(["import", try runner.ndjson("in.ndjson", lines), "--format", "json"])
        #expect(result.status == 3)
        let unknownKey = "unknown top-level key (expected id, stream, type, occurredAt, data, meta)"
        #expect(
            Array(result.stderrLines.prefix(6)) == [
                "error: line 1: \(stream) EligibilityChecked: occuredAt: \(unknownKey); did you mean \"occurredAt\"?",
                "error: line 2: - EligibilityChecked: Stream: \(unknownKey); did you mean \"stream\"?",
                "error: line 3: \(stream) EligibiltyChecked: EligibiltyChecked is not an event type of the catalog; "
                    + "did you mean \"EligibilityChecked\"?",
                "error: line 4: \(stream) eligibilitychecked: eligibilitychecked is not an event type of the catalog; "
                    + "did you mean \"EligibilityChecked\"?",
                "error: line 5: \(stream) SomethingElse: SomethingElse is not an event type of the catalog",
                "error: line 6: \(stream) EligibilityChecked: xyz: \(unknownKey)"
            ], "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(object["byRule"] as? [String: Int] == ["catalog": 3, "envelope.unknown-key": 3])
    }

    @Test("an impossible date in the right format is not a valid date, not a format error")
    func anImpossibleDateIsNotAValidDate() throws {
        let runner = try JournalRunner()
        let stream = LegalEvents.cardStream(1)
        let lines = [
            Self.line(1, occurredAt: "2026-02-30T10:00:00.000Z"),
            Self.line(2, occurredAt: "2026-13-01T10:00:00.000Z"),
            Self.line(3, occurredAt: "2026-11-29T25:00:00.000Z"),
            Self.line(4, occurredAt: "2028-02-29T10:00:00.000Z"), // a leap day: valid
            Self.line(5, occurredAt: "2026-11-29T10:00:00Z")
        ]
        let result = try runner.run(["import", try runner.ndjson("in.ndjson", lines), "--format", "json"])
        #expect(result.status == 3)
        #expect(
            result.stderrLines.prefix(4) == [
                """
                error: line 1: \(stream) EligibilityChecked: occurredAt: not a valid date: 2026-02 has no day 30 (01 \
                to 28)
                """,
                """
                error: line 2: \(stream) EligibilityChecked: occurredAt: not a valid date: month 13 does not exist (01 \
                to 12)
                """,
                """
                error: line 3: \(stream) EligibilityChecked: occurredAt: not a valid date: hour 25 does not exist (00 \
                to 23)
                """,
                """
                error: line 5: \(stream) EligibilityChecked: occurredAt: expected a UTC timestamp written as \
                YYYY-MM-DDTHH:MM:SS.sssZ
                """
            ], "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(object["byRule"] as? [String: Int] == ["envelope.invalid-date": 3, "envelope.occurredAt": 1])
    }

    @Test("an id already used by other content names the first field that differs, never a value")
    func aReusedIDNamesTheDifferingField() throws {
        let runner = try JournalRunner()
        let stream = LegalEvents.cardStream(1)
        let first = Self.line(
            1, data: #"{"inputMethod":"manual","outcome":"eligible","score":1.50}"#,
            extra: #","meta":{"platform":"iOS"}"#)
        try runner.importLegal([first])
        let id = LegalEvents.uuid(1, prefix: "bad00000")
        let lines = [
            Self.line(
                1, data: #"{"inputMethod":"bankApp","outcome":"eligible","score":1.50}"#,
                extra: #","meta":{"platform":"iOS"}"#),
            Self.line(1, type: "TermsAccepted", data: #"{"inputMethod":"manual","outcome":"eligible","score":1.50}"#),
            Self.line(
                1, occurredAt: "2026-11-29T10:00:00.001Z",
                data: #"{"inputMethod":"manual","outcome":"eligible","score":1.50}"#),
            Self.line(
                1, data: #"{"inputMethod":"manual","outcome":"eligible","score":15e-1}"#,
                extra: #","meta":{"platform":"Android"}"#),
            Self.line(
                1, data: #"{"inputMethod":"manual","outcome":"eligible"}"#, extra: #","meta":{"platform":"iOS"}"#),
            Self.line(
                1, stream: LegalEvents.cardStream(2),
                data: #"{"inputMethod":"manual","outcome":"eligible","score":1.50}"#),
            // Same content, other spelling: a duplicate.
            Self.line(
                1, data: #"{"score":1.5,"outcome":"eligible","inputMethod":"manual"}"#,
                extra: #","meta":{"platform":"iOS"}"#)
        ]
        let result = try runner.run(["import", try runner.ndjson("in.ndjson", lines), "--format", "json"])
        #expect(result.status == 3)
        let used = "id \(id) is already used by another event (position 1, \(stream) EligibilityChecked)"
        #expect(
            Array(result.stderrLines.prefix(6)) == [
                "error: line 1: \(stream) EligibilityChecked: \(used): data.inputMethod differs",
                "error: line 2: \(stream) TermsAccepted: \(used): type differs",
                "error: line 3: \(stream) EligibilityChecked: \(used): occurredAt differs",
                "error: line 4: \(stream) EligibilityChecked: \(used): meta.platform differs",
                "error: line 5: \(stream) EligibilityChecked: \(used): data.score differs",
                "error: line 6: \(LegalEvents.cardStream(2)) EligibilityChecked: \(used): stream differs"
            ], "\(result.stderr)")
        #expect(!result.stderr.contains("bankApp") && !result.stderr.contains("Android"))
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(object["duplicates"] as? Int == 1)
        #expect(object["byRule"] as? [String: Int] == ["duplicate-id": 6])
    }
}
