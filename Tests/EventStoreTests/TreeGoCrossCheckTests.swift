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
}
