import JournalCore
import Testing

@testable import EventStore

/// Witnesses' cosignatures and the sizes witnesses hold (spec §11), kept by every backend in
/// tables made on first use, and returned with the checkpoints they sign.
@Suite("Cosignature storage conformance")
struct CosignatureStoreConformanceTests {
    static let w1 = "witness.example/w1+00000001+BAAA"
    static let w2 = "witness.example/w2+00000002+BAAA"

    static func cosignature(
        _ witness: String, size: Int64, root: [UInt8], origin: String = "journal.test", line: String
    ) -> StoredCosignature {
        StoredCosignature(
            origin: origin, size: size, root: root, witness: witness, line: line, keptAt: FixedClock.instant)
    }

    @Test(
        "before any cosign nothing is kept; cosignatures join the note of their checkpoint only", arguments: Backend.all
    )
    func cosignaturesFollowTheirCheckpoint(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.append(Fixture.events(0..<5), to: Fixture.stream(1), expectedVersion: .noStream)
        #expect(try store.cosignatures(size: nil).isEmpty)
        #expect(try store.witnessSizes(origin: "journal.test").isEmpty)
        let root3 = try store.treeRoot(size: 3)
        let root5 = try store.treeRoot(size: 5)
        let three = try store.storeCheckpoint(
            note: "journal.test\n3\nr3\n\n— journal.test sig3\n", size: 3, root: root3)
        let other = try store.storeCheckpoint(note: "other.test\n5\nr5\n\n— other.test sig\n", size: 5, root: root5)
        let five = try store.storeCheckpoint(note: "journal.test\n5\nr5\n\n— journal.test sig5\n", size: 5, root: root5)
        try store.storeCosignatures(
            [
                Self.cosignature(Self.w1, size: 5, root: root5, line: "— witness.example/w1 old"),
                Self.cosignature(Self.w1, size: 3, root: root3, line: "— witness.example/w1 three"),
                Self.cosignature(Self.w2, size: 5, root: root5, line: "— witness.example/w2 five"),
                Self.cosignature(Self.w1, size: 5, root: root5, line: "— witness.example/w1 new")
            ],
            witnessSizes: [
                WitnessSize(witness: Self.w1, origin: "journal.test", size: 3),
                WitnessSize(witness: Self.w2, origin: "journal.test", size: 5)
            ])
        let latest = try #require(try store.latestCheckpoint())
        // The latest of each witness, after the log's signature line.
        #expect(latest.note == five.note + "— witness.example/w2 five\n— witness.example/w1 new\n")
        #expect(latest.cosignatures.map(\.witnessName) == ["witness.example/w2", "witness.example/w1"])
        let all = try store.checkpoints()
        #expect(all.map(\.note) == [three.note + "— witness.example/w1 three\n", other.note, latest.note])
        #expect(all[1].cosignatures.isEmpty)
        // Sizes are replaced, per witness and origin.
        try store.storeCosignatures(
            [], witnessSizes: [WitnessSize(witness: Self.w1, origin: "journal.test", size: 5)])
        #expect(try store.witnessSizes(origin: "journal.test") == [Self.w1: 5, Self.w2: 5])
        #expect(try store.witnessSizes(origin: "other.test").isEmpty)
        #expect(try store.cosignatures(size: 3).count == 1)
        #expect(try store.cosignatures(size: nil).count == 4)
    }

    @Test("the database refuses to change or delete a kept cosignature", arguments: Backend.all)
    func cosignaturesAreImmutable(backend: Backend) throws {
        let harness = try backend.open(StoreOptions())
        try harness.store.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .noStream)
        let root = try harness.store.treeRoot(size: 3)
        try harness.store.storeCosignatures(
            [Self.cosignature(Self.w1, size: 3, root: root, line: "— witness.example/w1 x")], witnessSizes: [])
        #expect(harness.tamper.sqlIsRefused("DELETE FROM journal_cosignatures"))
        #expect(harness.tamper.sqlIsRefused("UPDATE journal_cosignatures SET line = 'forged'"))
        #expect(try harness.store.cosignatures(size: 3).map(\.line) == ["— witness.example/w1 x"])
    }
}
