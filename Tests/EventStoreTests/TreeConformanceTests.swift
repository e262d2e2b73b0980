import JournalCore
import Testing

@testable import EventStore

/// The journal's Merkle tree (spec §6), kept by every write path of every backend in
/// the transaction of its events: after any sequence of commits, the stored tree is the RFC 6962
/// tree over the export lines of the log.
@Suite("Merkle tree conformance")
struct TreeConformanceTests {
    /// The stored tree at `sizes` (default: the head) against the naive tree over the log's
    /// export lines, and the tree's size against the head.
    static func expectTreeMatchesLog(
        _ store: some EventStore, sizes: [Int64]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let leaves = try TreeOracle.leafHashes(store)
        #expect(try store.treeSize() == Int64(leaves.count), sourceLocation: sourceLocation)
        for size in sizes ?? [Int64(leaves.count)] {
            let expected = TreeOracle.root(leaves[..<Int(size)])
            #expect(try store.treeRoot(size: size) == expected, "root at size \(size)", sourceLocation: sourceLocation)
            #expect(
                try TreeOracle.storedRoot(store, size: size) == expected, "subtrees at size \(size)",
                sourceLocation: sourceLocation)
        }
        #expect(
            try store.treeHead() == TreeHead(size: Int64(leaves.count), root: TreeOracle.root(leaves[...])),
            sourceLocation: sourceLocation)
    }

    /// Every stored tile, as text, to compare a tree before and after something that must not
    /// change it.
    static func tiles(_ store: some EventStore) throws -> [String] {
        var tiles: [String] = []
        for level in 0..<4 {
            var index: Int64 = 0
            while case let hashes = try store.treeTile(level: level, index: index), !hashes.isEmpty {
                tiles.append("\(level)/\(index): \(EventHashing.hex(hashes))")
                index += 1
            }
        }
        return tiles
    }

    @Test("after each single append the stored tree is the naive tree over the export lines", arguments: Backend.all)
    func singleAppends(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        // A stream id and data that the export line must escape or carry as they are.
        let odd = try StreamName(#"3ds-quote"and\backslash"#)
        for n in 0..<40 {
            let stream = n % 5 == 0 ? odd : Fixture.stream(n % 3)
            let event = Fixture.event(
                n, data: n % 4 == 0 ? #"{"text":"line\nbreak \u00e9","n":\#(n)}"# : nil,
                meta: n % 3 == 0 ? #"{"sdk":"ios"}"# : nil)
            try store.append([event], to: stream, expectedVersion: .any)
            try Self.expectTreeMatchesLog(store)
        }
        try Self.expectTreeMatchesLog(store, sizes: Array(0...40))
    }

    @Test("multi-stream appends and write transactions keep the tree", arguments: Backend.all)
    func multiStreamTransactions(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.append(
            (0..<4).map { s in
                StreamAppend(
                    stream: Fixture.stream(s), expectedVersion: .noStream,
                    events: Fixture.events((10 * s)..<(10 * s + 3)))
            })
        try Self.expectTreeMatchesLog(store)
        try store.write { transaction in
            for s in 0..<4 {
                try transaction.append(
                    Fixture.events((100 + 10 * s)..<(100 + 10 * s + s + 1)), to: Fixture.stream(s),
                    expectedVersion: .exact(2))
            }
        }
        try Self.expectTreeMatchesLog(store, sizes: Array(0...22))
    }

    @Test("group-committed concurrent appends keep the tree", arguments: Backend.all)
    func concurrentAppends(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        runThreads(8) { thread in
            for n in 0..<20 {
                _ = try? store.append(
                    [Fixture.event(thread * 1000 + n)], to: Fixture.stream(thread % 3), expectedVersion: .any)
                // Conflicting requests in the same groups: refused under their savepoints.
                _ = try? store.append(
                    [Fixture.event(50_000 + thread * 1000 + n)], to: Fixture.stream(99),
                    expectedVersion: .noStream)
            }
        }
        #expect(try store.headPosition() == 161)
        try Self.expectTreeMatchesLog(store)
    }

    @Test("a write transaction that throws leaves the tree exactly as it was", arguments: Backend.all)
    func rolledBackWrite(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.append(Fixture.events(0..<300), to: Fixture.stream(1), expectedVersion: .noStream)
        let before = try Self.tiles(store)
        #expect(throws: EventStoreError.self) {
            try store.write { transaction in
                try transaction.append(Fixture.events(300..<320), to: Fixture.stream(2), expectedVersion: .noStream)
                try transaction.append([Fixture.event(320)], to: Fixture.stream(1), expectedVersion: .exact(5))
            }
        }
        #expect(try Self.tiles(store) == before)
        try Self.expectTreeMatchesLog(store)
    }

    @Test("an append refused inside a write transaction takes back only its own leaves", arguments: Backend.all)
    func refusedAppendInsideWrite(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.write { transaction in
            try transaction.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .noStream)
            #expect(throws: EventStoreError.self) {
                try transaction.append(Fixture.events(3..<6), to: Fixture.stream(1), expectedVersion: .noStream)
            }
            try transaction.append(Fixture.events(6..<8), to: Fixture.stream(2), expectedVersion: .noStream)
        }
        #expect(try store.headPosition() == 5)
        try Self.expectTreeMatchesLog(store, sizes: Array(0...5))
    }

    @Test("crossing 256 leaves fills a tile and starts the next level", arguments: Backend.all)
    func crossing256(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        var n = 0
        while n < 600 {
            let count = min(37, 600 - n)
            try store.append(Fixture.events(n..<(n + count)), to: Fixture.stream(n % 7), expectedVersion: .any)
            n += count
        }
        #expect(try store.treeTile(level: 0, index: 0).count == 256 * 32)
        #expect(try store.treeTile(level: 0, index: 1).count == 256 * 32)
        #expect(try store.treeTile(level: 0, index: 2).count == 88 * 32)
        #expect(try store.treeTile(level: 1, index: 0).count == 2 * 32)
        #expect(try store.treeTile(level: 1, index: 1).isEmpty)
        try Self.expectTreeMatchesLog(store, sizes: [1, 255, 256, 257, 300, 511, 512, 513, 600])
        let leaves = try TreeOracle.leafHashes(store)
        #expect(try store.subtreeHash(level: 8, index: 1) == TreeOracle.root(leaves[256..<512]))
        #expect(try store.subtreeHash(level: 3, index: 70) == TreeOracle.root(leaves[560..<568]))
    }

    @Test("crossing 65,536 leaves: a level-1 tile fills and level 2 begins")
    func crossing65536() throws {
        let store = try Backend.sqliteOnDisk.open(StoreOptions()).store
        let total = 65_536 + 700
        var n = 0
        while n < total {
            let count = min(4_000, total - n)
            try store.append(Fixture.events(n..<(n + count)), to: Fixture.stream(n % 11), expectedVersion: .any)
            n += count
        }
        #expect(try store.treeTile(level: 1, index: 0).count == 256 * 32)
        #expect(try store.treeTile(level: 2, index: 0).count == 32)
        let leaves = try TreeOracle.leafHashes(store)
        #expect(try store.subtreeHash(level: 16, index: 0) == TreeOracle.root(leaves[..<65_536]))
        #expect(try store.treeTile(level: 2, index: 0) == TreeOracle.root(leaves[..<65_536]))
        for size in [65_535, 65_536, 65_537, total] {
            #expect(try TreeOracle.storedRoot(store, size: Int64(size)) == TreeOracle.root(leaves[..<size]))
        }
    }

    @Test("a long write transaction moves its leaves into the tiles as it goes and still rolls back a refused append")
    func longTransaction() throws {
        let store = try Backend.sqliteOnDisk.open(StoreOptions()).store
        let total = SQLiteJournal.treeFlushLeaves + 300
        try store.write { transaction in
            for n in stride(from: 0, to: total, by: 100) {
                try transaction.append(
                    Fixture.events(n..<(n + 100)), to: Fixture.stream(n / 100 % 5), expectedVersion: .any)
                if n == SQLiteJournal.treeFlushLeaves + 100 {
                    #expect(throws: EventStoreError.self) {
                        try transaction.append(
                            [Fixture.event(900_000)], to: Fixture.stream(0), expectedVersion: .noStream)
                    }
                }
            }
        }
        try Self.expectTreeMatchesLog(store, sizes: [Int64(SQLiteJournal.treeFlushLeaves), Int64(total)])
    }

    @Test("the leaf line of a position is its export line, and the tree's first leaf hashes it", arguments: Backend.all)
    func leafLines(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .noStream)
        let events = try store.readAll(from: 1, limit: 10)
        for event in events {
            var line: [UInt8] = []
            event.exportLine(into: &line)
            #expect(try store.leafLine(position: event.position) == line)
        }
        #expect(
            try Array(store.treeTile(level: 0, index: 0)[0..<32]) == TreeOracle.leafHash(store.leafLine(position: 1)))
        for position: Int64 in [0, 4, -1] {
            let error = try #require(throws: EventStoreError.self) { try store.leafLine(position: position) }
            #expect(error.code == .invalidInput)
        }
        let incomplete = try #require(throws: EventStoreError.self) { try store.subtreeHash(level: 2, index: 0) }
        #expect(incomplete.code == .invalidInput)
        #expect(try store.subtreeHash(level: 1, index: 0) == TreeOracle.root(TreeOracle.leafHashes(store)[0..<2]))
    }

    @Test("inclusion and consistency proofs read from the store verify against the naive roots", arguments: Backend.all)
    func proofsVerify(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        var n = 0
        while n < 530 {
            try store.append(Fixture.events(n..<(n + 53)), to: Fixture.stream(n % 5), expectedVersion: .any)
            n += 53
        }
        let leaves = try TreeOracle.leafHashes(store)
        for size: Int64 in [1, 2, 7, 255, 256, 257, 512, 530] {
            let root = TreeOracle.root(leaves[..<Int(size)])
            for index in Set([0, size / 3, size / 2, size - 1]) {
                let proof = try store.inclusionProof(index: index, size: size)
                try Merkle.verifyInclusion(
                    leafHash: leaves[Int(index)], index: index, size: size, proof: proof, root: root)
            }
            for old: Int64 in [1, 3, 128, 256, 300] where old <= size {
                let proof = try store.consistencyProof(from: old, to: size)
                try Merkle.verifyConsistency(
                    oldSize: old, newSize: size, oldRoot: TreeOracle.root(leaves[..<Int(old)]),
                    newRoot: root, proof: proof)
            }
        }
        let leaf = Merkle.leafHash(try store.leafLine(position: 100))
        try Merkle.verifyInclusion(
            leafHash: leaf, index: 99, size: 530, proof: store.inclusionProof(index: 99, size: 530),
            root: store.treeHead().root)
    }

    @Test("proofs and roots outside the tree are refused with the sizes in the message", arguments: Backend.all)
    func proofErrors(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        #expect(try store.treeHead() == TreeHead(size: 0, root: TreeOracle.sha256([])))
        try store.append(Fixture.events(0..<10), to: Fixture.stream(1), expectedVersion: .noStream)
        let refused: [(String, () throws -> Void)] = [
            ("size 0", { _ = try store.inclusionProof(index: 0, size: 0) }),
            ("beyond the head", { _ = try store.inclusionProof(index: 0, size: 11) }),
            ("index at the size", { _ = try store.inclusionProof(index: 5, size: 5) }),
            ("negative index", { _ = try store.inclusionProof(index: -1, size: 5) }),
            ("m > n", { _ = try store.consistencyProof(from: 6, to: 5) }),
            ("from 0", { _ = try store.consistencyProof(from: 0, to: 5) }),
            ("to beyond the head", { _ = try store.consistencyProof(from: 2, to: 11) }),
            ("root beyond the head", { _ = try store.treeRoot(size: 11) }),
            ("negative root", { _ = try store.treeRoot(size: -1) }),
            (
                "a checkpoint of another root",
                { try store.keepCheckpoint(note: "n", size: 5, root: TreeOracle.sha256([])) }
            )
        ]
        for (label, attempt) in refused {
            let error = try #require(throws: EventStoreError.self, "\(label)") { try attempt() }
            #expect(error.code == .invalidInput, "\(label)")
        }
        #expect(try store.consistencyProof(from: 10, to: 10).isEmpty)
        #expect(try store.treeRoot(size: 0) == TreeOracle.sha256([]))
        #expect(try store.checkpoints().isEmpty)
        let kept = try store.keepCheckpoint(note: "n", size: 5, root: store.treeRoot(size: 5))
        #expect(try store.latestCheckpoint() == kept)
    }

    @Test("the database refuses to delete tiles or to change hashes already stored", arguments: Backend.all)
    func tilesOnlyGrow(backend: Backend) throws {
        let harness = try backend.open(StoreOptions())
        try harness.store.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .noStream)
        try harness.store.storeCheckpoint(note: "n", size: 3, root: TreeOracle.root(of: harness.store))
        let tamper = harness.tamper
        #expect(tamper.sqlIsRefused("DELETE FROM journal_tree"))
        #expect(tamper.sqlIsRefused("UPDATE journal_tree SET hashes = substr(hashes, 33) WHERE level = 0 AND idx = 0"))
        #expect(tamper.sqlIsRefused("UPDATE journal_tree SET idx = 1 WHERE level = 0 AND idx = 0"))
        #expect(tamper.sqlIsRefused("DELETE FROM journal_checkpoints"))
        #expect(tamper.sqlIsRefused("UPDATE journal_checkpoints SET size = 2"))
        try Self.expectTreeMatchesLog(harness.store)
    }

    @Test("verify fails at the first position of a stored tile that is not the tree of the log", arguments: Backend.all)
    func verifyChecksTheTree(backend: Backend) throws {
        let harness = try backend.open(StoreOptions())
        let store = harness.store
        try store.append(Fixture.events(0..<600), to: Fixture.stream(1), expectedVersion: .noStream)
        #expect(try store.verify().events == 600)
        try harness.tamper.dropImmutabilityTriggers()
        #expect(!harness.tamper.sqlIsRefused("DELETE FROM journal_tree WHERE level = 0 AND idx = 1"))
        let missing = try #require(throws: EventStoreError.self) { try store.verify() }
        #expect(missing.code == .integrity)
        #expect(missing.position == 257)
        #expect(missing.message.contains("Merkle tree tile (0, 1)"), "\(missing.message)")
        // A tile of a level the tree of 600 events does not reach.
        #expect(!harness.tamper.sqlIsRefused("DELETE FROM journal_tree WHERE level = 1"))
        #expect(throws: EventStoreError.self) { try store.verify() }
    }

    @Test("verify fails when one byte of a stored tile changes, and ignores an open transaction's leaves")
    func verifyChecksTileBytes() throws {
        let store = try SQLiteEventStore(path: ":memory:", configuration: StoreOptions().sqlite)
        try store.append(Fixture.events(0..<300), to: Fixture.stream(1), expectedVersion: .noStream)
        try store.write { transaction in
            try transaction.append(Fixture.events(300..<310), to: Fixture.stream(1), expectedVersion: .any)
            #expect(try store.verify().events == 310)
        }
        #expect(try store.verify().events == 310)
        var tile = try store.treeTile(level: 0, index: 1)
        tile[40] ^= 0x10
        try store.withConnection { db in
            try db.execute("DROP TRIGGER journal_tree_append_only")
            let update = try db.prepare("UPDATE journal_tree SET hashes = ? WHERE level = 0 AND idx = 1")
            update.bind(blob: tile, at: 1)
            try update.run()
        }
        let error = try #require(throws: EventStoreError.self) { try store.verify() }
        #expect(error.code == .integrity)
        #expect(error.position == 257)
    }

    @Test("kept checkpoints are listed in order with the store's clock, and survive", arguments: Backend.all)
    func checkpoints(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        #expect(try store.checkpoints().isEmpty)
        #expect(try store.latestCheckpoint() == nil)
        try store.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .noStream)
        let first = try store.storeCheckpoint(
            note: "journal.test\n3\nroot\n\n— sig\n", size: 3,
            root: TreeOracle.root(of: store))
        try store.append(Fixture.events(3..<5), to: Fixture.stream(1), expectedVersion: .exact(2))
        let second = try store.storeCheckpoint(
            note: "journal.test\n5\nroot\n\n— sig\n", size: 5,
            root: TreeOracle.root(of: store))
        #expect(first.signedAt == FixedClock.instant)
        #expect(try store.checkpoints() == [first, second])
        #expect(try store.latestCheckpoint() == second)
    }

    @Test("the latest checkpoint is the last one kept, not the one of the largest tree", arguments: Backend.all)
    func latestCheckpointIsTheLastKept(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.append(Fixture.events(0..<5), to: Fixture.stream(1), expectedVersion: .noStream)
        var kept: [StoredCheckpoint] = []
        for size in [5, 2, 4, 1, 3] as [Int64] {
            let checkpoint = try store.storeCheckpoint(
                note: "journal.test\n\(size)\nroot\n\n— sig\n", size: size,
                root: try store.treeRoot(size: size))
            kept.append(checkpoint)
            #expect(try store.latestCheckpoint() == checkpoint)
        }
        #expect(try store.checkpoints() == kept)
    }
}
