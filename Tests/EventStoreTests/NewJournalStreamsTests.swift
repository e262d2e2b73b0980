import Testing

@testable import EventStore

/// The map a journal load finds its streams by, before the name index exists: a candidate per
/// name, exact even when names share a hash.
@Suite("New journal streams")
struct NewJournalStreamsTests {
    @Test
    func namesThatShareAHashKeepTheirOwnIDs() throws {
        var streams = NewJournalStreams(hash: { _ in 42 })
        #expect(streams.candidate(for: try StreamName("3ds-a")) == nil)
        streams.add(try StreamName("3ds-a"), id: 1)
        // Another name with the same hash gets the first one's id as a candidate, which the
        // writer's check of the stored name refuses; it is then added by its name.
        #expect(streams.candidate(for: try StreamName("3ds-b")) == 1)
        streams.add(try StreamName("3ds-b"), id: 2)
        streams.add(try StreamName("3ds-c"), id: 3)
        #expect(streams.candidate(for: try StreamName("3ds-a")) == 1)
        #expect(streams.candidate(for: try StreamName("3ds-b")) == 2)
        #expect(streams.candidate(for: try StreamName("3ds-c")) == 3)
        #expect(streams.count == 3)
    }

    @Test
    func aNameCreatedAgainAfterARollbackIsFoundByItsLatestID() throws {
        var streams = NewJournalStreams(hash: { _ in 7 })
        streams.add(try StreamName("card-x"), id: 5) // rolled back later: id 5 then holds another stream
        streams.add(try StreamName("card-x"), id: 6) // created again, after its first id failed the check
        #expect(streams.candidate(for: try StreamName("card-x")) == 6)
        streams.add(try StreamName("card-x"), id: 9)
        #expect(streams.candidate(for: try StreamName("card-x")) == 9)
    }
}
