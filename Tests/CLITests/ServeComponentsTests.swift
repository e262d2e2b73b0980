import Foundation
import Testing

@testable import JournalApp
@testable import JournalHTTP

/// The pieces of `journal serve` in process: tokens, routes, addresses, body lines, metrics.
@Suite("journal serve components")
struct ServeComponentsTests {
    @Test("a tokens file line that is not '<role> <name> sha256:<hex>' is an error naming its line; so is no token")
    func tokensFileErrorsNameTheLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("tokens.txt").path
        let digest = TokenFile.digest(of: "secret-token")
        try Data("# ops tokens\n\nread dash sha256:\(digest)\nwrite x sha256:\(digest)\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        #expect(throws: CLIError.self) { try TokenFile.load(path: path) }
        do {
            _ = try TokenFile.load(path: path)
        } catch {
            #expect(error.messages.first?.contains("line 4") == true)
            #expect(error.messages.first?.contains(digest) == false)
        }
        try Data("# nobody yet\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CLIError.self) { try TokenFile.load(path: path) }
        try Data("read dash sha256:\(digest)\nadmin ops sha256:\(TokenFile.digest(of: "other"))\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let tokens = try TokenFile.load(path: path)
        #expect(tokens.entry(forToken: "secret-token")?.name == "dash")
        #expect(tokens.entry(forToken: "other")?.role == .admin)
        #expect(tokens.entry(forToken: "secret-token ") == nil)
        #expect(tokens.entry(forToken: "") == nil)
    }

    @Test("the token digest is SHA-256 in hex and the comparison needs every byte equal")
    func digestAndComparison() {
        #expect(TokenFile.digest(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(TokenFile.constantTimeEqual(Array("abcd".utf8), Array("abcd".utf8)))
        #expect(!TokenFile.constantTimeEqual(Array("abcd".utf8), Array("abce".utf8)))
        #expect(!TokenFile.constantTimeEqual(Array("abcd".utf8), Array("abc".utf8)))
        #expect(TokenFile.isName("collector-eu1.v2_a") && !TokenFile.isName("") && !TokenFile.isName("a b"))
    }

    @Test("roles: read may GET, append may POST events only, admin anything")
    func roles() {
        #expect(TokenRole.read.allows(method: "GET", route: .metrics))
        #expect(!TokenRole.read.allows(method: "POST", route: .events))
        #expect(TokenRole.append.allows(method: "POST", route: .events))
        #expect(!TokenRole.append.allows(method: "GET", route: .events))
        #expect(
            TokenRole.admin.allows(method: "POST", route: .events)
                && TokenRole.admin.allows(method: "GET", route: .query))
    }

    @Test("paths match their route patterns and nothing else")
    func routes() {
        #expect(APIRoute.match("/v1/streams/3ds-abc") == (.stream, "3ds-abc"))
        #expect(APIRoute.match("/v1/query/otp") == (.query, "otp"))
        #expect(APIRoute.match("/v1/proof/12") == (.proof, "12"))
        #expect(APIRoute.match("/v1/events") == (.events, nil))
        #expect(APIRoute.match("/v1/streams/") == (.unmatched, nil))
        #expect(APIRoute.match("/v1/streams/a/b") == (.unmatched, nil))
        #expect(APIRoute.match("/v1/events/") == (.unmatched, nil))
        #expect(APIRoute.events.methods == ["GET", "POST"])
    }

    @Test("--listen takes IPv4, [IPv6] and localhost; only 127.0.0.0/8 and ::1 are loopback")
    func listenAddresses() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8080") == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try ListenAddress(parsing: "localhost:0").host == "127.0.0.1")
        #expect(try ListenAddress(parsing: "[::1]:9000").isLoopback)
        #expect(try ListenAddress(parsing: "[::1]:9000").url == "http://[::1]:9000")
        #expect(try ListenAddress(parsing: "127.3.2.1:1").isLoopback)
        #expect(try !ListenAddress(parsing: "0.0.0.0:1").isLoopback)
        #expect(try !ListenAddress(parsing: "[::]:1").isLoopback)
        #expect(try !ListenAddress(parsing: "10.0.0.1:1").isLoopback)
        for bad in ["8080", "host:80", "127.0.0.1:65536", "127.0.0.1:", ":80"] {
            #expect(throws: CLIError.self, "\(bad)") { try ListenAddress(parsing: bad) }
        }
    }

    @Test("a body's lines follow the import reader's rules: numbering, blank lines, CR, no final LF, too long")
    func bodyLines() {
        let body =
            Array("a\r\n\n  \nbb\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 2000) + Array("\nlast".utf8)
        let lines = NDJSONLineReader.lines(of: body, maxLineLength: 1024)
        #expect(lines.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(lines[0].bytes == Array("a".utf8))
        #expect(lines[1].isBlank && lines[2].isBlank)
        #expect(lines[4].problem == .tooLong(limit: 1024))
        #expect(lines[5].bytes == Array("last".utf8))
        #expect(NDJSONLineReader.lines(of: [0xFF, 0x0A]).first?.problem == .invalidUTF8(offset: 0))
        #expect(NDJSONLineReader.lines(of: []).isEmpty)
    }

    @Test("metrics: cumulative histogram buckets, escaped label values")
    func metricsText() {
        let metrics = ServeMetrics()
        metrics.append(seconds: 0.002, appended: 3, duplicates: 1)
        metrics.append(seconds: 0.3, appended: 1, duplicates: 0)
        metrics.request(route: "/v1/events", status: 200)
        let text = metrics.render(
            .init(
                events: 4, head: 4, threeDSOutcomes: [("a\"b", 1)], threeDSOTPSubmissions: 0,
                cardOTPSubmissions: 2, inFlight: 1))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"journal_http_append_duration_seconds_bucket{le="0.001"} 0"#))
        #expect(lines.contains(#"journal_http_append_duration_seconds_bucket{le="0.0025"} 1"#))
        #expect(lines.contains(#"journal_http_append_duration_seconds_bucket{le="0.5"} 2"#))
        #expect(lines.contains(#"journal_http_append_duration_seconds_bucket{le="+Inf"} 2"#))
        #expect(lines.contains("journal_http_appended_events_total 4"))
        #expect(lines.contains(#"journal_3ds_transactions{outcome="a\"b"} 1"#))
        #expect(lines.contains(#"journal_otp_submissions_total{flow="card"} 2"#))
        #expect(text.hasSuffix("\n"))
    }
}
