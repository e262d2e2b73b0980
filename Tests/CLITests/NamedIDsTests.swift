import Testing

@testable import JournalApp

@Suite("the flags replay --all keeps of the ids it has names for")
struct NamedIDsTests {
    @Test("an id is flagged once inserted, and only then")
    func flagsInsertedIDs() {
        var ids = NamedIDs()
        #expect(!ids.contains(1))
        for id: Int64 in [1, 2, 70, 1_000] { ids.insert(id) }
        #expect([1, 2, 70, 1_000].allSatisfy { ids.contains($0) })
        #expect(![0, 3, 69, 71, 999, 1_001, 5_000].contains { ids.contains($0) })
    }

    @Test("an id below 0 or beyond the limit is never flagged, so its check falls back to the names")
    func idsOutOfRangeAreNotFlagged() {
        var ids = NamedIDs()
        for id in [-1, NamedIDs.limit, Int64(Int32.max), .max] {
            ids.insert(id)
            #expect(!ids.contains(id), "\(id)")
        }
    }
}
