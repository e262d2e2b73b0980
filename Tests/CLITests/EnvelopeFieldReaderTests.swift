import JournalCore
import Testing

@testable import JournalApp

/// The import line's typed field reader: what it reads is what the JSON tree reads, and what it
/// cannot judge exactly it leaves to the tree.
@Suite("Envelope field reader")
struct EnvelopeFieldReaderTests {
    static let id = "31478263-a9f7-4135-a3f5-de7dc793ac3a"
    static let stream = "3ds-ad4e2e9a-ee94-489c-9ed7-edc750c2e83f"

    static func line(
        data: String = #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#,
        meta: String? = #"{"platform":"iOS","simulated":true}"#, extra: String = ""
    ) -> String {
        var text =
            #"{"id":"\#(id)","stream":"\#(stream)","type":"TransactionCreated","#
            + #""occurredAt":"2026-11-29T08:00:00.043Z","data":\#(data)"#
        if let meta { text += #","meta":\#(meta)"# }
        return text + extra + "}"
    }

    @Test(arguments: [
        line(),
        line(meta: nil),
        line(meta: "null"),
        line(meta: "{}"),
        line(data: "{}"),
        line(data: #"{"count":-12,"flag":false,"none":null}"#),
        line(extra: #","position":7,"version":0,"recordedAt":"2026-11-29T08:00:01.000Z","hash":"ab""#),
        "  " + line() + " \r"
    ])
    func aCommonLineIsReadAsTheTreeReadsIt(text: String) throws {
        let bytes = Array(text.utf8)
        let tree = try Envelope(line: bytes)
        let read = try #require(EnvelopeFieldReader.read(bytes))
        #expect(read.0.id == tree.id)
        #expect(read.0.stream == tree.stream)
        #expect(read.0.type == tree.type)
        #expect(read.0.occurredAt == tree.occurredAt)
        #expect(read.1.data == tree.dataBytes)
        #expect(read.1.meta == tree.metaBytes)
    }

    @Test(arguments: [
        // Not the typed reading's to judge: the tree reads these (valid) lines.
        line(data: #"{"a": 1}"#),
        line(data: #"{"a":{"b":1}}"#),
        line(data: #"{"a":[1]}"#),
        line(data: #"{"a":"\u0041"}"#),
        line(data: #"{"a":1.5}"#),
        line(data: #"{"a":"é"}"#),
        line(meta: #"{"b":[]}"#),
        line(extra: #","position":{"x":1}"#),
        // Errors: the tree gives their text.
        line(data: #"{"a":1,"a":2}"#),
        line(extra: #","id":"\#(id)""#),
        line(extra: #","colour":"red""#),
        line(data: "[]"),
        line(meta: "1"),
        line(data: #"{"otp":"123456"}"#),
        line(data: #"{"note":"4111 1111 1111 1111"}"#),
        line(meta: #"{"card":4111111111111111}"#),
        line().replacing("2026-11-29T08:00:00.043Z", with: "2026-02-30T08:00:00.043Z"),
        line().replacing("2026-11-29T08:00:00.043Z", with: "2026-11-29 08:00:00"),
        line().replacing("3ds-ad4e", with: "3ds-AD4E"),
        line().replacing("TransactionCreated", with: ""),
        line().replacing("31478263-", with: "31478263"),
        line().replacing(#""id":"\#(id)","#, with: ""),
        line().replacing(#""type":"#, with: #""type ":"#),
        String(line().dropLast())
    ])
    func anyOtherLineIsLeftToTheTree(text: String) {
        #expect(EnvelopeFieldReader.read(Array(text.utf8)) == nil)
    }

    @Test func aLineTheReaderLeavesIsRejectedWithTheTreesReason() {
        let prepared = Importer.prepare(
            InputLine(number: 3, bytes: Array(Self.line(data: #"{"a":1,"otp":"123456"}"#).utf8)), parser: JSONParser())
        guard case let .rejected(rejection) = prepared.content else {
            Issue.record("expected a rejection")
            return
        }
        #expect(rejection.reason.hasPrefix("sensitive data: data.otp is a forbidden key"))
        #expect(rejection.rule == "sensitive-data")
    }
}
