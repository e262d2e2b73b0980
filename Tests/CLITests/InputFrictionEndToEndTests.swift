import Foundation
import Testing

/// The friction a new user meets at the edges of the command line (issue 35, item 9): input
/// encodings, timestamps as people write them, what `verify --format json` tells, token
/// messages and names, the help's usage lines, and counts in the singular.
@Suite("input friction (end to end)")
struct InputFrictionEndToEndTests {
    /// `lines` as UTF-16 bytes, with a byte order mark or not.
    static func utf16(_ lines: [String], bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        var bytes: [UInt8] = byteOrderMark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in (lines.joined(separator: "\n") + "\n").utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    @Test(
        "a UTF-16 file gets one error naming iconv, exit 3, and no journal is created",
        arguments: [(false, true), (true, true), (false, false), (true, false)])
    func utf16FileIsOneError(bigEndian: Bool, byteOrderMark: Bool) throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let lines = events.events(atLeast: 40)
        let path = try runner.write(
            "events.ndjson", bytes: Self.utf16(lines, bigEndian: bigEndian, byteOrderMark: byteOrderMark))
        let result = try runner.run(["import", path])
        #expect(result.status == 3)
        let errors = result.stderrLines.filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1, "\(result.stderr)")
        let name = byteOrderMark ? "UTF-16" : bigEndian ? "UTF-16BE" : "UTF-16LE"
        #expect(errors.first?.contains("this file is UTF-16") == true, "\(result.stderr)")
        #expect(errors.first?.contains("convert it with iconv -f \(name) -t UTF-8") == true, "\(result.stderr)")
        #expect(!runner.exists("journal.db"))
    }

    @Test("UTF-16 on stdin is one error too, and nothing is written")
    func utf16OnStdinIsOneError() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let lines = events.events(atLeast: 10)
        // Little-endian without a mark: each ASCII character followed by a NUL.
        let wide = String((lines.joined(separator: "\n") + "\n").flatMap { [$0, "\u{0}"] })
        let result = try runner.run(["import", "-"], stdin: wide)
        #expect(result.status == 3)
        let errors = result.stderrLines.filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(errors.first?.contains("convert it with iconv -f UTF-16LE -t UTF-8") == true, "\(result.stderr)")
        // A failed import into a path that did not exist leaves no file there (spec §9).
        #expect(!runner.exists("journal.db"))
    }

    @Test("a UTF-8 byte order mark at the start of the file is skipped; elsewhere it is still refused")
    func byteOrderMarkAtTheStartIsSkipped() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let lines = events.events(atLeast: 20)
        let path = try runner.write(
            "events.ndjson", bytes: [0xEF, 0xBB, 0xBF] + Array((lines.joined(separator: "\n") + "\n").utf8))
        let result = try runner.run(["import", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try runner.exportedObjects().count == lines.count)
        // From stdin too.
        let other = try JournalRunner()
        let piped = try other.run(
            ["import", "-"], stdin: "\u{FEFF}" + lines.joined(separator: "\n") + "\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try other.exportedObjects().count == lines.count)
        // A mark at the start of another line (files joined with cat) is still that line's error.
        let third = try JournalRunner()
        let joined = try third.write(
            "joined.ndjson",
            bytes: Array((lines[0] + "\n").utf8) + [0xEF, 0xBB, 0xBF] + Array((lines[1] + "\n").utf8))
        let refused = try third.run(["import", joined])
        #expect(refused.status == 3)
        #expect(
            refused.stderrLines.first
                == "error: line 2: - -: starts with a UTF-8 byte order mark (save the file as UTF-8 without BOM)")
    }

    @Test("--since and --until take RFC 3339 UTC with 0 to 9 fraction digits, rounded up to the millisecond")
    func timestampsWithAnyFraction() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.events(atLeast: 60))
        let times = try runner.exportedObjects().compactMap { $0["occurredAt"] as? String }.sorted()
        let middle = times[times.count / 2]
        let exact = try runner.run(["query", "otp", "--format", "json", "--since", middle])
        #expect(exact.status == 0, "\(exact.stderr)")
        let millis = middle.dropFirst(20).prefix(3)
        let seconds = String(middle.prefix(19))
        // The same instant with 9 digits, with +00:00, and in lowercase.
        for same in [
            seconds + ".\(millis)000000Z", seconds + ".\(millis)+00:00", (seconds + ".\(millis)z").lowercased()
        ] {
            let result = try runner.run(["query", "otp", "--format", "json", "--since", same])
            #expect(result.status == 0, "\(same): \(result.stderr)")
            #expect(result.stdout == exact.stdout, "\(same)")
        }
        // Whole seconds, no fraction: accepted, and the same as .000.
        let whole = try runner.run(["query", "otp", "--format", "json", "--since", seconds + "Z"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(
            whole.stdout == (try runner.run(["query", "otp", "--format", "json", "--since", seconds + ".000Z"])).stdout)
        // A fraction finer than a millisecond counts from the next millisecond.
        let finer = try runner.run(["query", "otp", "--format", "json", "--since", "\(seconds).\(millis)0001Z"])
        let next = Int(millis)! + 1
        if next < 1000 {
            let padded = String(repeating: "0", count: 3 - String(next).count) + String(next)
            let nextMillisecond = try runner.run([
                "query", "otp", "--format", "json", "--since", "\(seconds).\(padded)Z"
            ])
            #expect(finer.stdout == nextMillisecond.stdout)
        }
        // Still refused: ten fraction digits, another offset.
        #expect(try runner.run(["query", "otp", "--since", seconds + ".0000000000Z"]).status == 2)
        #expect(try runner.run(["query", "otp", "--since", seconds + "+01:00"]).status == 2)
        // The envelope stays strict.
        var fresh = LegalEvents()
        let line = fresh.events(atLeast: 1)[0]
            .replacingOccurrences(of: #"\.\d{3}Z""#, with: #"Z""#, options: .regularExpression)
        let empty = try JournalRunner()
        let strict = try empty.run(["import", try empty.ndjson("strict.ndjson", [line])])
        #expect(strict.status == 3)
        #expect(strict.stderr.contains("occurredAt"), "\(strict.stderr)")
    }

    @Test("verify --format json gives the tree size and its base64 root, as a checkpoint does")
    func verifyJSONHasTheTreeHead() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.events(atLeast: 25))
        let key = runner.path("j.key")
        #expect(try runner.run(["keygen", "j.example/log", "--out", key], db: false).status == 0)
        let note = try runner.run(["checkpoint", "--key", key]).stdout.components(separatedBy: "\n")
        let verify = try runner.run(["verify", "--format", "json"])
        #expect(verify.status == 0, "\(verify.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        #expect(object?["treeSize"] as? Int == Int(note[1]))
        #expect(object?["root"] as? String == note[2])
    }

    @Test("journal token refuses a name the file already has, and writes nothing")
    func tokenRefusesADuplicateName() throws {
        let runner = try JournalRunner()
        let file = runner.path("tokens.txt")
        #expect(try runner.run(["token", "read", "dashboard", "--tokens", file], db: false).status == 0)
        let before = try runner.read("tokens.txt")
        let again = try runner.run(["token", "admin", "dashboard", "--tokens", file], db: false)
        #expect(again.status == 1)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr.contains("already has a token named 'dashboard'"), "\(again.stderr)")
        #expect(try runner.read("tokens.txt") == before)
        #expect(try runner.run(["token", "admin", "ops", "--tokens", file], db: false).status == 0)
    }

    @Test("serve answers an unknown bearer token 401 saying it is not known, and a missing one that one is needed")
    func unknownTokenIsNamed() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.events(atLeast: 5))
        let file = runner.path("tokens.txt")
        let token = try runner.run(["token", "append", "collector", "--tokens", file], db: false)
            .stdout.trimmingCharacters(in: .newlines)
        let server = try ServeProcess(runner, ["--tokens", file])
        let missing = try server.request("GET", "/v1/events")
        #expect(missing.status == 401)
        #expect((missing.json?["error"] as? String)?.hasPrefix("a bearer token is needed") == true)
        let unknown = try server.request(
            "GET", "/v1/events", headers: ["Authorization": "Bearer \(String(repeating: "0", count: 64))"])
        #expect(unknown.status == 401)
        #expect((unknown.json?["error"] as? String)?.hasPrefix("the bearer token is not known") == true)
        // A body with a UTF-8 byte order mark is accepted as import takes it.
        let body =
            [0xEF, 0xBB, 0xBF] + Array((ServeEndToEndTests.transactionStart(9).joined(separator: "\n") + "\n").utf8)
        let appended = try RawHTTP.request(
            port: server.port, "POST", "/v1/events",
            headers: ["Content-Type": "application/x-ndjson", "Authorization": "Bearer \(token)"], body: body)
        #expect(appended.status == 200, "\(appended.body)")
        #expect(appended.json?["appended"] as? Int == 2)
        // A UTF-16 body: one error, 422.
        let wide = try RawHTTP.request(
            port: server.port, "POST", "/v1/events",
            headers: ["Content-Type": "application/x-ndjson", "Authorization": "Bearer \(token)"],
            body: Self.utf16(ServeEndToEndTests.transactionStart(10), bigEndian: false, byteOrderMark: true))
        #expect(wide.status == 422)
        let errors = wide.json?["errors"] as? [[String: Any]]
        #expect(errors?.count == 1)
        #expect((errors?.first?["reason"] as? String)?.hasPrefix("this body is UTF-16") == true, "\(wide.body)")
        #expect(server.stop() == 0)
    }

    @Test("--help shows required options without brackets and no --db where no journal is opened")
    func helpShowsRequiredOptions() throws {
        let runner = try JournalRunner()
        func usage(_ command: String) throws -> String {
            let result = try runner.run([command, "--help"], db: false)
            return result.stdoutLines.first ?? ""
        }
        #expect(try usage("report").hasPrefix("usage: journal report --out FILE [--since T]"))
        #expect(
            try usage("check")
                == "usage: journal check FILE --key VKEY [--checkpoint CHECKPOINT] [--witness-key VKEY] [--quorum N] "
                + "[--format text|json]")
        #expect(try usage("keygen") == "usage: journal keygen NAME --out FILE [--witness] [--format text|json]")
        #expect(try usage("token") == "usage: journal token ROLE NAME --tokens FILE")
        for command in ["keygen", "check", "token", "copy"] {
            let help = try runner.run([command, "--help"], db: false).stdout
            #expect(!help.contains("--db PATH"), "\(command)")
        }
        #expect(try runner.run(["export", "--help"], db: false).stdout.contains("[--db PATH]"))
        // Still accepted where it is not listed (spec §4: every command takes --db).
        #expect(try runner.run(["keygen", "x.example/k", "--out", runner.path("k.key")]).status == 0)
    }

    @Test("one line, one store transaction: counts of one are in the singular")
    func countsOfOneAreSingular() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let line = events.events(atLeast: 1)[0]
        let imported = try runner.run(["import", try runner.ndjson("one.ndjson", [line])])
        #expect(imported.stdout == "imported 1 line: 1 appended, 0 duplicates, 0 rejected\n", "\(imported.stdout)")
        let again = try runner.run(["import", try runner.ndjson("one.ndjson", [line])])
        #expect(again.stdout == "nothing new: 1 line read, 1 duplicate already in the journal\n", "\(again.stdout)")
        let other = try JournalRunner()
        let simulated = try other.run(["simulate", "--seed", "1", "--transactions", "1", "--digitizations", "1"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let first = simulated.stdoutLines.first ?? ""
        #expect(first.contains("simulated 1 3DS transaction and 1 card digitization "), "\(first)")
        #expect(first.hasSuffix(" in 1 store transaction"), "\(first)")
    }
}
