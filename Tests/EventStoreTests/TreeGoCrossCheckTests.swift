import Foundation
import JournalCore
import Testing

@testable import EventStore

/// The store's proofs, read from its tiles, are accepted by Go's `sumdb/tlog` (`CheckRecord`,
/// `CheckTree`), the reference verifier spec §6 names.
@Suite(
    "Merkle tree: the store's proofs checked by Go's sumdb/tlog",
    .enabled(if: GoReference.available || GoReference.required, "Go and golang.org/x/mod are not installed"))
struct TreeGoCrossCheckTests {
    @Test("inclusion and consistency proofs read from a SQLite journal pass CheckRecord and CheckTree")
    func storeProofsPassGo() throws {
        let store = try Backend.sqliteOnDisk.open(StoreOptions()).store
        var n = 0
        while n < 700 {
            try store.append(Fixture.events(n..<(n + 70)), to: Fixture.stream(n % 3), expectedVersion: .any)
            n += 70
        }
        func list(_ proof: [[UInt8]]) -> String {
            proof.isEmpty ? "-" : proof.map(Base64.encode).joined(separator: ",")
        }
        var requests: [String] = []
        for size: Int64 in [1, 5, 256, 257, 513, 700] {
            let root = try store.treeRoot(size: size)
            for index in Set([0, size / 2, size - 1]) {
                let line = try store.leafLine(position: index + 1)
                requests.append(
                    "record \(size) \(Base64.encode(root)) \(index) \(Base64.encode(line)) "
                        + list(try store.inclusionProof(index: index, size: size)))
            }
            for old: Int64 in [1, 3, 256, 300] where old < size {
                requests.append(
                    "tree \(old) \(Base64.encode(try store.treeRoot(size: old))) \(size) \(Base64.encode(root)) "
                        + list(try store.consistencyProof(from: old, to: size)))
            }
        }
        let answers = try GoReference.run(requests)
        for (request, answer) in zip(requests, answers) {
            #expect(answer.hasPrefix("ok"), "\(request.prefix(40)): \(answer)")
        }
    }

    @Test("a published mirror read by Go through tlog.TileHashReader: the root, CheckRecord and CheckTree hold")
    func mirrorPassesGo() throws {
        let store = try Backend.sqliteOnDisk.open(StoreOptions()).store
        try MirrorFixture.fill(store, 0..<1_000)
        try MirrorFixture.sign(store)
        let folder = TemporaryDirectory.make()
        let mirror = folder.file("mirror")
        _ = try MirrorPublisher(store: store, directory: mirror, entries: true).publish()
        let old = folder.file("old-checkpoint")
        try FileManager.default.copyItem(atPath: mirror + "/checkpoint", toPath: old)
        try MirrorFixture.fill(store, 1_000..<7_050)
        let signed = try MirrorFixture.sign(store)
        _ = try MirrorPublisher(store: store, directory: mirror, entries: true).publish()
        var random = SystemRandomNumberGenerator()
        let indexes = [0, 255, 256, 6_999, 7_049] + (0..<20).map { _ in Int.random(in: 0..<7_050, using: &random) }
        let key = MirrorFixture.verifier.description
        let requests = [
            "mirror \(key) \(mirror) \(indexes.map(String.init).joined(separator: ",")) \(old)",
            "mirror \(key) \(mirror) - -"
        ]
        let answers = try GoReference.run(requests)
        let expected = "ok 7050 \(Base64.encode(signed.checkpoint.root))"
        #expect(answers == [expected, expected], "indexes \(indexes)")

        // A changed tile is caught by Go's tile hash reader.
        let level0 = mirror + "/tile/0/010"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: level0))
        bytes[0] ^= 1
        try bytes.write(to: URL(fileURLWithPath: level0))
        let tampered = try GoReference.run(["mirror \(key) \(mirror) 2600 -"])
        #expect(tampered.first?.hasPrefix("error") == true, "\(tampered)")
    }
}
