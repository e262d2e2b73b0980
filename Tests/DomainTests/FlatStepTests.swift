import Domain
import JournalCore
import Simulator
import Testing

/// A `3ds` event read in place folds through the values its rules read (`ThreeDSEvent.Step`),
/// not through a decoded payload: every field of every generated event, changed to values the
/// catalog accepts and refuses, must fold to the state the parsed object gives, or be refused
/// with the same reason.
@Suite("3-D Secure events folded from their bytes")
struct FlatStepTests {
    /// Values a field is changed to: every JSON scalar kind, and values at the edges of the
    /// catalog's rules (counters, lengths, integer ranges, UUIDs, enumerations).
    static let replacements: [JSONValue?] = [
        nil, .null, .bool(true), .bool(false), .string(""), .string("x"), .string("000"), .string("001"),
        .string("999"), .string("1000"), .string("01"), .string("Y"), .string("N"), .string("C"),
        .string("submitText"), .string("cancel"), .string("2.2.0"),
        .string("A0000000031"), .string("0b9e8d6c-1f2a-4b3c-8d4e-5f6a7b8c9d0e"),
        .string("0B9E8D6C-1F2A-4B3C-8D4E-5F6A7B8C9D0E"), .string("0b9e8d6c-1f2a-4b3c-8d4e-5f6a7b8c9d0"),
        .string(String(repeating: "m", count: 256)), .string(String(repeating: "m", count: 257)),
        .number(JSONNumber(uncheckedText: "0")), .number(JSONNumber(uncheckedText: "-1")),
        .number(JSONNumber(uncheckedText: "299")), .number(JSONNumber(uncheckedText: "300")),
        .number(JSONNumber(uncheckedText: "1000000000")), .number(JSONNumber(uncheckedText: "1000000001")),
        .number(JSONNumber(uncheckedText: "9223372036854775807")),
        .number(JSONNumber(uncheckedText: "9223372036854775808")),
        .number(JSONNumber(uncheckedText: "-9223372036854775808")), .number(JSONNumber(uncheckedText: "-0"))
    ]

    @Test func everyChangedFieldFoldsAsTheParsedObjectDoes() throws {
        let generator = JourneyGenerator(seed: 40)
        var compared = 0
        var readFlat = 0
        for number in 0..<120 {
            let journey = generator.journey(.threeDS)
            var state = try JourneyState.initial(for: journey.stream)
            for event in journey.events {
                // The event's own fields, and fields the catalog has for other 3DS events.
                let keys = Set(event.data.entries.map(\.key)).union([
                    "customCertificate", "warnings", "entryLength", "noEntry", "acsUiType", "transStatus",
                    "errorDetail", "transStatusReason"
                ])
                for key in keys.sorted() {
                    for replacement in Self.replacements {
                        var data = event.data
                        data[key] = replacement
                        let parsed = state.applying(type: event.type, data: data, occurredAt: event.occurredAt)
                        if let flat = Self.foldedFlat(state, type: event.type, data: data, at: event.occurredAt) {
                            readFlat += 1
                            #expect(
                                flat == parsed,
                                "journey \(number) \(event.type) \(JSONWriter.string(.object(data)))")
                        }
                        compared += 1
                    }
                }
                state = try #require(
                    try? state.applying(type: event.type, data: event.data, occurredAt: event.occurredAt).get())
            }
        }
        #expect(readFlat * 10 > compared * 9, "\(readFlat) of \(compared) read flat")
    }

    /// `state` after the event read from its `data` bytes in place, nil when the flat reading
    /// declines them.
    static func foldedFlat(_ state: JourneyState, type: String, data: JSONObject, at occurredAt: Timestamp)
        -> Result<JourneyState, DomainRejection>?
    {
        var state = state
        let bytes = Array(JSONWriter.string(.object(data)).utf8)
        let result = bytes.withUnsafeBytes { bytes in
            JSONFlatObject.withMembers(of: bytes) { flat in
                Result { () throws(DomainRejection) in
                    try state.apply(type: type, flatData: flat, occurredAt: occurredAt)
                }
            }
        }
        return result.map { $0.map { state } }
    }
}
