import JournalCore
import Testing

@testable import JournalApp

@Suite("Name suggestion")
struct NameSuggestionTests {
    static let keys = [
        "id", "stream", "type", "occurredAt", "data", "meta", "position", "version", "recordedAt", "hash"
    ]

    @Test("the one nearest name within two edits is suggested, ignoring case, swaps counting once")
    func nearestName() {
        #expect(NameSuggestion.nearest(to: "occuredAt", among: Self.keys) == "occurredAt")
        #expect(NameSuggestion.nearest(to: "OCCURREDAT", among: Self.keys) == "occurredAt")
        #expect(NameSuggestion.nearest(to: "tpye", among: Self.keys) == "type")
        #expect(NameSuggestion.nearest(to: "di", among: Self.keys) == "id")
        #expect(NameSuggestion.nearest(to: "recordAt", among: Self.keys) == "recordedAt")
        #expect(NameSuggestion.distance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)) == 1)
    }

    @Test("no suggestion when nothing is near, when two names are equally near, or for a tiny word")
    func noSuggestion() {
        #expect(NameSuggestion.nearest(to: "payload", among: Self.keys) == nil)
        #expect(NameSuggestion.nearest(to: "x", among: Self.keys) == nil)
        #expect(NameSuggestion.nearest(to: "beta", among: ["meta", "beda"]) == nil)
        #expect(NameSuggestion.nearest(to: "type", among: Self.keys) == nil)
    }
}
