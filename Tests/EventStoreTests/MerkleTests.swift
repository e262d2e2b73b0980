import EventStore
import Foundation
import JournalCore
import Testing

@Suite("Merkle tree (RFC 6962)")
struct MerkleTests {
    private struct InclusionCase {
        let name: String
        let index: Int64
        let size: Int64
        let root: [UInt8]
        let leafHash: [UInt8]
        let proof: [[UInt8]]
        let wantError: Bool
    }

    private struct ConsistencyCase {
        let name: String
        let oldSize: Int64
        let newSize: Int64
        let oldRoot: [UInt8]
        let newRoot: [UInt8]
        let proof: [[UInt8]]
        let wantError: Bool
    }

    private static func bytes(_ object: JSONObject, _ key: String) throws -> [UInt8] {
        guard let text = object[key]?.stringValue, let bytes = Base64.decode(text) else {
            throw FixtureError("\(key): not base64")
        }
        return bytes
    }

    private static func proof(_ object: JSONObject) throws -> [[UInt8]] {
        try (object["proof"]?.arrayValue ?? []).map { value in
            guard let text = value.stringValue, let bytes = Base64.decode(text) else {
                throw FixtureError("proof: not base64")
            }
            return bytes
        }
    }

    /// The vectors hold unsigned 64-bit sizes (an index of 0 − 1 wraps to 2^64 − 1): as Int64 bits.
    private static func int(_ object: JSONObject, _ key: String) throws -> Int64 {
        guard let text = object[key]?.numberValue?.text, let value = UInt64(text) else {
            throw FixtureError("\(key): not an integer")
        }
        return Int64(bitPattern: value)
    }

    private static func inclusionCases() throws -> [InclusionCase] {
        let folder = EvidenceFixture.merkleData.appendingPathComponent("inclusion")
        return try EvidenceFixture.jsonFiles(under: folder).map { file in
            let object = try EvidenceFixture.json(file)
            return InclusionCase(
                name: file.path, index: try int(object, "leafIdx"), size: try int(object, "treeSize"),
                root: try bytes(object, "root"), leafHash: try bytes(object, "leafHash"),
                proof: try proof(object), wantError: object["wantErr"]?.boolValue ?? false)
        }
    }

    private static func consistencyCases() throws -> [ConsistencyCase] {
        let folder = EvidenceFixture.merkleData.appendingPathComponent("consistency")
        return try EvidenceFixture.jsonFiles(under: folder).map { file in
            let object = try EvidenceFixture.json(file)
            return ConsistencyCase(
                name: file.path, oldSize: try int(object, "size1"), newSize: try int(object, "size2"),
                oldRoot: try bytes(object, "root1"), newRoot: try bytes(object, "root2"),
                proof: try proof(object), wantError: object["wantErr"]?.boolValue ?? false)
        }
    }

    /// The tree of the eight leaf inputs of roots.json.
    private static func referenceTree() throws -> (tree: MerkleTree, roots: [[UInt8]]) {
        let object = try EvidenceFixture.json(EvidenceFixture.merkleData.appendingPathComponent("roots.json"))
        let leaves = (object["leafInputsHex"]?.arrayValue ?? []).compactMap(\.stringValue).map(EvidenceFixture.hex)
        let roots = (object["rootsHexBySize"]?.arrayValue ?? []).compactMap(\.stringValue).map(EvidenceFixture.hex)
        return (MerkleTree(leafLines: leaves), roots)
    }

    @Test("the roots of the reference leaves are those of roots.json, the empty tree's included")
    func referenceRoots() throws {
        let (tree, roots) = try Self.referenceTree()
        #expect(roots.count == 9)
        #expect(Merkle.emptyRoot == roots[0])
        for size in 0...8 {
            #expect(try tree.root(size: Int64(size)) == roots[size], "size \(size)")
        }
    }

    @Test("every inclusion test vector verifies or fails as the vector says")
    func inclusionVectors() throws {
        let cases = try Self.inclusionCases()
        #expect(cases.count > 50)
        #expect(cases.contains { !$0.wantError } && cases.contains(where: \.wantError))
        for vector in cases {
            let result = Result { () throws(MerkleProofError) in
                try Merkle.verifyInclusion(
                    leafHash: vector.leafHash, index: vector.index, size: vector.size,
                    proof: vector.proof, root: vector.root)
            }
            if vector.wantError {
                #expect(throws: MerkleProofError.self, "\(vector.name)") { try result.get() }
            } else {
                #expect(throws: Never.self, "\(vector.name)") { try result.get() }
            }
        }
    }

    @Test("the proofs we generate equal the valid inclusion vectors' proofs")
    func generatedInclusionMatchesVectors() throws {
        let (tree, _) = try Self.referenceTree()
        let valid = try Self.inclusionCases().filter { !$0.wantError && $0.size <= 8 && $0.size > 0 }
        #expect(!valid.isEmpty)
        for vector in valid where tree.levels[0][Int(vector.index)] == vector.leafHash {
            #expect(try tree.inclusionProof(index: vector.index, size: vector.size) == vector.proof, "\(vector.name)")
            #expect(try tree.root(size: vector.size) == vector.root)
        }
    }

    @Test("every consistency test vector verifies or fails as the vector says")
    func consistencyVectors() throws {
        let cases = try Self.consistencyCases()
        #expect(cases.count > 50)
        for vector in cases {
            let result = Result { () throws(MerkleProofError) in
                try Merkle.verifyConsistency(
                    oldSize: vector.oldSize, newSize: vector.newSize, oldRoot: vector.oldRoot,
                    newRoot: vector.newRoot, proof: vector.proof)
            }
            if vector.wantError {
                #expect(throws: MerkleProofError.self, "\(vector.name)") { try result.get() }
            } else {
                #expect(throws: Never.self, "\(vector.name)") { try result.get() }
            }
        }
    }

    @Test("the consistency proofs we generate equal the valid consistency vectors' proofs")
    func generatedConsistencyMatchesVectors() throws {
        let (tree, roots) = try Self.referenceTree()
        let valid = try Self.consistencyCases().filter {
            !$0.wantError && $0.oldSize >= 1 && $0.newSize <= 8 && $0.newRoot == roots[Int($0.newSize)]
        }
        #expect(valid.count >= 4)
        for vector in valid {
            #expect(
                try tree.consistencyProof(oldSize: vector.oldSize, newSize: vector.newSize) == vector.proof,
                "\(vector.name)")
        }
    }

    @Test("for every size 1–300 and every index the inclusion proof verifies against the naive MTH root")
    func inclusionAllSizes() throws {
        let lines = (0..<300).map(EvidenceFixture.leafLine)
        let tree = MerkleTree(leafLines: lines)
        let leafHashes = lines.map(Merkle.leafHash)
        for size in 1...300 {
            let root = EvidenceFixture.naiveRoot(leafHashes[..<size])
            #expect(try tree.root(size: Int64(size)) == root, "size \(size)")
            for index in 0..<size {
                let proof = try tree.inclusionProof(index: Int64(index), size: Int64(size))
                #expect(throws: Never.self, "index \(index) of \(size)") {
                    try Merkle.verifyInclusion(
                        leafHash: leafHashes[index], index: Int64(index), size: Int64(size),
                        proof: proof, root: root)
                }
            }
        }
    }

    @Test("an inclusion proof with a flipped bit, a wrong index or a wrong size fails")
    func inclusionTampering() throws {
        let lines = (0..<71).map(EvidenceFixture.leafLine)
        let tree = MerkleTree(leafLines: lines)
        for size in Int64(2)...70 {
            let largerRoot = try tree.root(size: size + 1)
            let root = try tree.root(size: size)
            for index in Int64(0)..<size {
                let leaf = tree.levels[0][Int(index)]
                let proof = try tree.inclusionProof(index: index, size: size)
                for hash in proof.indices {
                    var flipped = proof
                    flipped[hash][Int(index) % 32] ^= 0x10
                    #expect(throws: MerkleProofError.rootMismatch) {
                        try Merkle.verifyInclusion(leafHash: leaf, index: index, size: size, proof: flipped, root: root)
                    }
                }
                var flippedLeaf = leaf
                flippedLeaf[0] ^= 1
                #expect(throws: MerkleProofError.rootMismatch) {
                    try Merkle.verifyInclusion(
                        leafHash: flippedLeaf, index: index, size: size, proof: proof, root: root)
                }
                let otherIndex = (index + 1) % size
                #expect(throws: MerkleProofError.self) {
                    try Merkle.verifyInclusion(leafHash: leaf, index: otherIndex, size: size, proof: proof, root: root)
                }
                #expect(throws: MerkleProofError.self) {
                    try Merkle.verifyInclusion(
                        leafHash: leaf, index: index, size: size + 1, proof: proof,
                        root: largerRoot)
                }
                #expect(throws: MerkleProofError.indexOutOfRange(index: index, size: index)) {
                    try Merkle.verifyInclusion(leafHash: leaf, index: index, size: index, proof: proof, root: root)
                }
            }
        }
    }

    @Test("consistency proofs for every 1 ≤ m ≤ n ≤ 64 and a sample up to 300 verify against naive roots")
    func consistencyAllSizes() throws {
        let lines = (0..<300).map(EvidenceFixture.leafLine)
        let tree = MerkleTree(leafLines: lines)
        let leafHashes = lines.map(Merkle.leafHash)
        let roots = (0...300).map { EvidenceFixture.naiveRoot(leafHashes[..<$0]) }
        var pairs: [(Int, Int)] = []
        for n in 1...64 { for m in 1...n { pairs.append((m, n)) } }
        for n in stride(from: 65, through: 300, by: 7) {
            for m in [1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, n - 1, n] where m <= n {
                pairs.append((m, n))
            }
        }
        pairs.append((300, 300))
        for (m, n) in pairs {
            let proof = try tree.consistencyProof(oldSize: Int64(m), newSize: Int64(n))
            #expect(throws: Never.self, "\(m) → \(n)") {
                try Merkle.verifyConsistency(
                    oldSize: Int64(m), newSize: Int64(n), oldRoot: roots[m], newRoot: roots[n],
                    proof: proof)
            }
        }
    }

    @Test("a consistency proof with a flipped bit, a wrong size or another root fails")
    func consistencyTampering() throws {
        let lines = (0..<41).map(EvidenceFixture.leafLine)
        let tree = MerkleTree(leafLines: lines)
        for n in Int64(2)...40 {
            let newRoot = try tree.root(size: n)
            let largerRoot = try tree.root(size: n + 1)
            for m in Int64(1)..<n {
                let oldRoot = try tree.root(size: m)
                let proof = try tree.consistencyProof(oldSize: m, newSize: n)
                for hash in proof.indices {
                    var flipped = proof
                    flipped[hash][Int(m) % 32] ^= 0x04
                    #expect(throws: MerkleProofError.self, "\(m) → \(n), hash \(hash)") {
                        try Merkle.verifyConsistency(
                            oldSize: m, newSize: n, oldRoot: oldRoot, newRoot: newRoot,
                            proof: flipped)
                    }
                }
                #expect(throws: MerkleProofError.self) {
                    try Merkle.verifyConsistency(
                        oldSize: m, newSize: n + 1, oldRoot: oldRoot, newRoot: largerRoot,
                        proof: proof)
                }
                if m > 1 {
                    #expect(throws: MerkleProofError.self) {
                        try Merkle.verifyConsistency(
                            oldSize: m - 1, newSize: n, oldRoot: try tree.root(size: m - 1),
                            newRoot: newRoot, proof: proof)
                    }
                }
                var otherOld = oldRoot
                otherOld[31] ^= 1
                // When m is a power of two the old root is the proof's first hash, so the new root fails.
                #expect(throws: MerkleProofError.self) {
                    try Merkle.verifyConsistency(
                        oldSize: m, newSize: n, oldRoot: otherOld, newRoot: newRoot, proof: proof)
                }
                var otherNew = newRoot
                otherNew[0] ^= 1
                #expect(throws: MerkleProofError.newRootMismatch) {
                    try Merkle.verifyConsistency(
                        oldSize: m, newSize: n, oldRoot: oldRoot, newRoot: otherNew, proof: proof)
                }
            }
        }
    }

    @Test("a store's oracle is asked only for complete subtrees inside the tree")
    func oracleSeesOnlyCompleteSubtrees() throws {
        let tree = MerkleTree(leafLines: (0..<100).map(EvidenceFixture.leafLine))
        for size in Int64(1)...100 {
            var asked: [(Int, Int64)] = []
            let oracle: (Int, Int64) throws -> [UInt8] = { level, index in
                asked.append((level, index))
                return try tree.subtreeHash(level: level, index: index)
            }
            _ = try Merkle.root(size: size, subtreeHash: oracle)
            for index in 0..<size { _ = try Merkle.inclusionProof(index: index, size: size, subtreeHash: oracle) }
            for old in 1...size { _ = try Merkle.consistencyProof(oldSize: old, newSize: size, subtreeHash: oracle) }
            for (level, index) in asked {
                #expect((index + 1) << level <= size, "size \(size): level \(level) index \(index)")
            }
        }
    }

    @Test("generation refuses an index beyond the tree and consistency sizes out of order")
    func generationArguments() throws {
        let tree = MerkleTree(leafLines: (0..<5).map(EvidenceFixture.leafLine))
        #expect(throws: MerkleError.indexOutOfRange(index: 5, size: 5)) { try tree.inclusionProof(index: 5) }
        #expect(throws: MerkleError.indexOutOfRange(index: -1, size: 5)) { try tree.inclusionProof(index: -1) }
        #expect(throws: MerkleError.consistencySizes(oldSize: 0, newSize: 5)) { try tree.consistencyProof(oldSize: 0) }
        #expect(throws: MerkleError.consistencySizes(oldSize: 4, newSize: 3)) {
            try tree.consistencyProof(oldSize: 4, newSize: 3)
        }
        #expect(try tree.consistencyProof(oldSize: 5).isEmpty)
        #expect(throws: MerkleError.negativeSize(-1)) {
            try Merkle.root(size: -1) { _, _ in [] }
        }
    }

    @Test("a wrong-length proof names the number of hashes needed")
    func wrongLengthIsNamed() throws {
        let tree = MerkleTree(leafLines: (0..<8).map(EvidenceFixture.leafLine))
        let proof = try tree.inclusionProof(index: 3)
        #expect(throws: MerkleProofError.wrongProofLength(expected: 3, actual: 2)) {
            try Merkle.verifyInclusion(
                leafHash: tree.levels[0][3], index: 3, size: 8, proof: Array(proof.dropLast()),
                root: try tree.root())
        }
        #expect(throws: MerkleProofError.malformedProofHash(index: 1, byteCount: 31)) {
            try Merkle.verifyInclusion(
                leafHash: tree.levels[0][3], index: 3, size: 8,
                proof: [proof[0], Array(proof[1].dropLast()), proof[2]], root: try tree.root())
        }
    }

    @Test("leaf and node hashes put the RFC 6962 prefix bytes before the input")
    func prefixes() {
        #expect(
            EvidenceFixture.hexString(Merkle.leafHash([UInt8]()))
                == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d")
        let left = Merkle.leafHash([UInt8]())
        let right = Merkle.leafHash([0x00])
        #expect(
            Merkle.nodeHash(left, right)
                == EvidenceFixture.hex("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"))
    }

    @Test("base64 round-trips every length and refuses text that is not canonical standard base64")
    func base64() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + length) }
            let text = Base64.encode(bytes)
            #expect(text == Data(bytes).base64EncodedString())
            #expect(Base64.decode(text) == bytes)
        }
        for bad in [
            "A", "AA", "AAA", "AA=A", "A===", "AB==", "AAB=", "AA==AA==", "AA\nA", "AA A", "-_AA", "====", "AAAA="
        ] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
        #expect(Base64.decode("") == [])
        #expect(Base64.decode("AA==") == [0])
    }
}
