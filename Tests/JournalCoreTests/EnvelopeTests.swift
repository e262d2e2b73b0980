import JournalCore
import Testing

@Suite("Envelope")
struct EnvelopeTests {
    static let id = "6f1c1f43-3a7b-4c55-9a41-0b9e2f3c4d5e"
    static let stream = "3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b"

    func line(_ extra: String = "", meta: String? = nil, replacing: (String, String)? = nil) -> String {
        var fields = [
            ("id", "\"\(Self.id)\""),
            ("stream", "\"\(Self.stream)\""),
            ("type", "\"TransactionCreated\""),
            ("occurredAt", "\"2026-11-29T10:15:02.125Z\""),
            ("data", #"{"directoryServerID":"A000000003","messageVersion":"2.2.0","n":1.50}"#)
        ]
        if let meta { fields.append(("meta", meta)) }
        if let (key, value) = replacing {
            if let index = fields.firstIndex(where: { $0.0 == key }) {
                if value.isEmpty { fields.remove(at: index) } else { fields[index].1 = value }
            }
        }
        let body = fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
        return "{" + body + extra + "}"
    }

    func parse(_ text: String) throws(EnvelopeError) -> Envelope {
        try Envelope(line: Array(text.utf8))
    }

    func error(_ text: String) -> EnvelopeError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesEveryFieldAndKeepsDataExactlyAsWritten() throws {
        let envelope = try parse(line(meta: #"{"platform":"iOS"}"#))
        #expect(envelope.id == Self.id)
        #expect(envelope.stream == Self.stream)
        #expect(envelope.type == "TransactionCreated")
        #expect(envelope.occurredAt.description == "2026-11-29T10:15:02.125Z")
        #expect(
            String(decoding: envelope.dataBytes, as: UTF8.self)
                == #"{"directoryServerID":"A000000003","messageVersion":"2.2.0","n":1.50}"#)
        #expect(envelope.metaBytes.map { String(decoding: $0, as: UTF8.self) } == #"{"platform":"iOS"}"#)
        #expect(envelope.category == "3ds")
    }

    @Test(arguments: ["", #","meta":null"#, #","meta":{}"#])
    func absentNullAndEmptyMetaAreTheSame(extra: String) throws {
        let envelope = try parse(line(extra))
        #expect(envelope.meta == nil)
        #expect(envelope.metaBytes == nil)
    }

    @Test func journalAssignedKeysAreIgnoredOnImport() throws {
        let envelope = try parse(line(#","position":7,"version":0,"recordedAt":"x","hash":"ab""#))
        #expect(envelope.id == Self.id)
    }

    @Test func unknownTopLevelKeyIsRejectedByName() {
        let failure = error(line(#","occuredAt":"2026-11-29T10:15:02.125Z""#))
        #expect(failure?.field == "occuredAt")
        #expect(failure?.reason.contains("unknown top-level key") == true)
        #expect(failure?.stream == Self.stream)
        #expect(failure?.type == "TransactionCreated")
    }

    @Test(arguments: [
        ("id", "", "missing"),
        ("id", "42", "expected a string, found integer"),
        ("id", "\"not-a-uuid\"", "expected a UUID"),
        ("stream", "\"3ds-0B9E2F3C-4D5E-4A41-9A41-6F1C1F433A7B\"", "lowercase UUID"),
        ("stream", "\"card-xyz\"", "card stream"),
        ("stream", "\"wallet-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b\"", "unknown stream category"),
        ("type", "\"\"", "empty"),
        ("type", "null", "expected a string, found null"),
        ("occurredAt", "\"2026-11-29T10:15:02Z\"", "YYYY-MM-DDTHH:MM:SS.sssZ"),
        ("occurredAt", "\"2026-11-29T10:15:02.125z\"", "YYYY-MM-DDTHH:MM:SS.sssZ"),
        ("occurredAt", "\"2026-02-30T10:15:02.125Z\"", "not a valid date"),
        ("data", "", "missing"),
        ("data", "[]", "expected an object, found array")
    ])
    func badFieldIsNamedWithItsReason(field: String, value: String, reason: String) {
        let failure = error(line(replacing: (field, value)))
        #expect(failure?.field == field)
        #expect(failure?.reason.contains(reason) == true, "\(String(describing: failure))")
    }

    @Test func metaThatIsNotAnObjectIsRejected() {
        let failure = error(line(meta: "[1]"))
        #expect(failure?.field == "meta")
        #expect(failure?.description == "meta: expected an object or null, found array")
    }

    @Test func cardStreamsTakeAUUIDInEitherCase() throws {
        let upper = "card-0B9E2F3C-4D5E-4A41-9A41-6F1C1F433A7B"
        #expect(try parse(line(replacing: ("stream", "\"\(upper)\""))).stream == upper)
        #expect(Envelope.streamNameProblem(upper) == nil)
    }

    @Test func aLineThatIsNotJSONOrNotAnObjectHasNoField() {
        #expect(error("{\"id\":")?.field == nil)
        #expect(error("{\"id\":")?.reason.contains("invalid JSON") == true)
        #expect(error("[1,2]")?.reason == "expected a JSON object, found array")
    }

    @Test func sameContentIgnoresKeyOrderNumberSpellingAndEmptyMeta() throws {
        let a = try parse(line(meta: "{}"))
        let b = try parse(
            line(replacing: ("data", #"{"n":1.5,"messageVersion":"2.2.0","directoryServerID":"A000000003"}"#)))
        let c = try parse(
            line(replacing: ("data", #"{"n":1.6,"messageVersion":"2.2.0","directoryServerID":"A000000003"}"#)))
        let d = try parse(line(meta: #"{"platform":"iOS"}"#))
        #expect(a.isSameContent(as: b))
        #expect(!a.isSameContent(as: c))
        #expect(!a.isSameContent(as: d))
        #expect(a != b)
    }
}

@Suite("Envelope timestamps")
struct EnvelopeTimestampTests {
    func failure(_ occurredAt: String) -> EnvelopeError? {
        let line =
            #"{"id":"\#(EnvelopeTests.id)","stream":"\#(EnvelopeTests.stream)","type":"TransactionCreated","#
            + #""occurredAt":"\#(occurredAt)","data":{}}"#
        do {
            _ = try Envelope(line: Array(line.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("an impossible date in the envelope's format is not a valid date, distinct from a format error")
    func impossibleDatesAreNotValidDates() {
        let cases = [
            ("2026-02-30T10:00:00.000Z", "not a valid date: 2026-02 has no day 30 (01 to 28)"),
            ("2026-13-01T10:00:00.000Z", "not a valid date: month 13 does not exist (01 to 12)"),
            ("2026-11-29T25:00:00.000Z", "not a valid date: hour 25 does not exist (00 to 23)"),
            ("2026-11-29T10:60:00.000Z", "not a valid date: minute 60 does not exist (00 to 59)"),
            ("2026-04-31T10:00:00.000Z", "not a valid date: 2026-04 has no day 31 (01 to 30)")
        ]
        for (text, reason) in cases {
            #expect(failure(text)?.reason == reason)
            #expect(failure(text)?.kind == .invalidDate)
        }
        #expect(failure("2028-02-29T10:00:00.000Z") == nil)
        #expect(failure("2026-11-29T10:00:00Z")?.kind == .invalidValue)
        #expect(
            failure("2026-11-29T10:00:00Z")?.reason == "expected a UTC timestamp written as YYYY-MM-DDTHH:MM:SS.sssZ")
    }
}
