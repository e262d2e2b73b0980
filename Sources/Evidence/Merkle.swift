/// The RFC 6962 Merkle tree (RFC 9162 §2.1) over the journal's log: hashes, proof generation
/// and proof verification.
///
/// Entry `i` of a tree is the leaf line of the event at position `i + 1` (spec §6).
/// Leaf hash = SHA-256(0x00 ‖ leaf line), interior node = SHA-256(0x01 ‖ left ‖ right), and
/// the empty tree's root is SHA-256 of nothing. Hashes are 32-byte arrays.
///
/// Generation works for any tree size from the hashes of *complete* subtrees only: the
/// subtree at `level` and `index` covers the leaves `[index·2^level, (index+1)·2^level)`. A
/// store that keeps those hashes (or an in-memory ``MerkleTree``) passes them in as
/// `subtreeHash`; hashes along an incomplete right edge are computed from them.
public enum Merkle {
    /// The size of every hash in the tree (SHA-256).
    public static let hashSize = 32

    /// The root of the empty tree: SHA-256 of nothing.
    public static let emptyRoot: [UInt8] = LibCrypto.sha256([UInt8]())

    /// SHA-256(0x00 ‖ `leafLine`): the hash of one entry.
    public static func leafHash(_ leafLine: some Collection<UInt8>) -> [UInt8] {
        LibCrypto.sha256 { input in
            input.update(byte: 0x00)
            input.update(leafLine)
        }
    }

    /// SHA-256(0x01 ‖ `left` ‖ `right`): the hash of an interior node.
    public static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        LibCrypto.sha256 { input in
            input.update(byte: 0x01)
            input.update(left)
            input.update(right)
        }
    }

    // MARK: Generation

    /// The root of the tree of `size` entries (MTH(D[size])); `emptyRoot` for size 0.
    ///
    /// - Throws: ``MerkleError/negativeSize(_:)``, or whatever `subtreeHash` throws.
    public static func root(size: Int64, subtreeHash: (_ level: Int, _ index: Int64) throws -> [UInt8]) throws
        -> [UInt8]
    {
        guard size >= 0 else { throw MerkleError.negativeSize(size) }
        if size == 0 { return emptyRoot }
        return try rangeHash(0, size, subtreeHash)
    }

    /// The inclusion proof of entry `index` in the tree of `size` entries (PATH(m, D[n]),
    /// RFC 6962 §2.1.1): the leaf's sibling first, the root's child last.
    ///
    /// - Throws: ``MerkleError/indexOutOfRange(index:size:)``, or whatever `subtreeHash` throws.
    public static func inclusionProof(
        index: Int64, size: Int64,
        subtreeHash: (_ level: Int, _ index: Int64) throws -> [UInt8]
    ) throws
        -> [[UInt8]]
    {
        guard index >= 0, index < size else { throw MerkleError.indexOutOfRange(index: index, size: size) }
        var proof: [[UInt8]] = []
        try appendPath(index, 0, size, subtreeHash, to: &proof)
        return proof
    }

    /// The consistency proof from the tree of `oldSize` entries to the tree of `newSize` entries
    /// (PROOF(m, D[n]), RFC 6962 §2.1.2); empty when the sizes are equal.
    ///
    /// - Throws: ``MerkleError/consistencySizes(oldSize:newSize:)`` unless
    ///   1 ≤ `oldSize` ≤ `newSize`, or whatever `subtreeHash` throws.
    public static func consistencyProof(
        oldSize: Int64, newSize: Int64,
        subtreeHash: (_ level: Int, _ index: Int64) throws -> [UInt8]
    ) throws
        -> [[UInt8]]
    {
        guard oldSize >= 1, oldSize <= newSize else {
            throw MerkleError.consistencySizes(oldSize: oldSize, newSize: newSize)
        }
        var proof: [[UInt8]] = []
        if oldSize < newSize {
            try appendSubproof(oldSize, 0, newSize, true, subtreeHash, to: &proof)
        }
        return proof
    }

    /// The largest power of two strictly below `count` (count ≥ 2): where RFC 6962 splits a tree.
    package static func split(_ count: Int64) -> Int64 {
        Int64(1) << (63 - (count - 1).leadingZeroBitCount)
    }

    /// MTH(D[lo:hi]). In every range the RFC's recursion reaches, a power-of-two range starts at a
    /// multiple of its size, so it is one complete subtree.
    private static func rangeHash(_ lo: Int64, _ hi: Int64, _ subtreeHash: (Int, Int64) throws -> [UInt8]) throws
        -> [UInt8]
    {
        let count = hi - lo
        if count & (count - 1) == 0 {
            let level = count.trailingZeroBitCount
            return try subtreeHash(level, lo >> level)
        }
        let k = split(count)
        return nodeHash(try rangeHash(lo, lo + k, subtreeHash), try rangeHash(lo + k, hi, subtreeHash))
    }

    private static func appendPath(
        _ m: Int64, _ lo: Int64, _ hi: Int64,
        _ subtreeHash: (Int, Int64) throws -> [UInt8], to proof: inout [[UInt8]]
    ) throws {
        guard hi - lo > 1 else { return }
        let k = split(hi - lo)
        if m < lo + k {
            try appendPath(m, lo, lo + k, subtreeHash, to: &proof)
            proof.append(try rangeHash(lo + k, hi, subtreeHash))
        } else {
            try appendPath(m, lo + k, hi, subtreeHash, to: &proof)
            proof.append(try rangeHash(lo, lo + k, subtreeHash))
        }
    }

    /// SUBPROOF(m, D[lo:hi], b) of RFC 6962 §2.1.2, with m counted from `lo`.
    private static func appendSubproof(
        _ m: Int64, _ lo: Int64, _ hi: Int64, _ complete: Bool,
        _ subtreeHash: (Int, Int64) throws -> [UInt8],
        to proof: inout [[UInt8]]
    ) throws {
        if m == hi - lo {
            if !complete { proof.append(try rangeHash(lo, hi, subtreeHash)) }
            return
        }
        let k = split(hi - lo)
        if m <= k {
            try appendSubproof(m, lo, lo + k, complete, subtreeHash, to: &proof)
            proof.append(try rangeHash(lo + k, hi, subtreeHash))
        } else {
            try appendSubproof(m - k, lo + k, hi, false, subtreeHash, to: &proof)
            proof.append(try rangeHash(lo, lo + k, subtreeHash))
        }
    }

    // MARK: Verification

    /// Checks that `proof` shows the entry with `leafHash` at `index` in the tree of `size`
    /// entries whose root is `root` (RFC 9162 §2.1.3.2).
    public static func verifyInclusion(
        leafHash: [UInt8], index: Int64, size: Int64, proof: [[UInt8]],
        root: [UInt8]
    ) throws(MerkleProofError) {
        guard index >= 0, index < size else { throw .indexOutOfRange(index: index, size: size) }
        guard leafHash.count == hashSize else { throw .malformedLeafHash(byteCount: leafHash.count) }
        try checkHashSizes(proof)
        let expected = inclusionProofLength(index: index, size: size)
        guard proof.count == expected else { throw .wrongProofLength(expected: expected, actual: proof.count) }
        guard rootFromInclusionProof(leafHash: leafHash, index: index, size: size, proof: proof) == root else {
            throw .rootMismatch
        }
    }

    /// The root that an inclusion proof of the right length leads to (RFC 9162 §2.1.3.2 step 4 ff.).
    package static func rootFromInclusionProof(
        leafHash: [UInt8], index: Int64, size: Int64,
        proof: [[UInt8]]
    ) -> [UInt8] {
        var fn = index
        var sn = size - 1
        var r = leafHash
        for p in proof {
            if fn & 1 == 1 || fn == sn {
                r = nodeHash(p, r)
                while fn & 1 == 0 && fn != 0 {
                    fn >>= 1
                    sn >>= 1
                }
            } else {
                r = nodeHash(r, p)
            }
            fn >>= 1
            sn >>= 1
        }
        return r
    }

    /// How many hashes the inclusion proof of `index` in a tree of `size` has.
    package static func inclusionProofLength(index: Int64, size: Int64) -> Int {
        walkSteps(index, size - 1)
    }

    /// The steps of RFC 9162's verification walk from node `fn` of last node `sn` until `sn`
    /// reaches 0: one path element is consumed at each.
    private static func walkSteps(_ start: Int64, _ last: Int64) -> Int {
        var fn = start
        var sn = last
        var count = 0
        while sn > 0 {
            if fn & 1 == 1 || fn == sn {
                while fn & 1 == 0 && fn != 0 {
                    fn >>= 1
                    sn >>= 1
                }
            }
            fn >>= 1
            sn >>= 1
            count += 1
        }
        return count
    }

    /// Checks that `proof` shows the tree of `oldSize` entries with root `oldRoot` to be a prefix
    /// of the tree of `newSize` entries with root `newRoot` (RFC 9162 §2.1.4.2). Equal sizes need
    /// an empty proof and equal roots; the empty tree is the prefix of nothing but itself.
    public static func verifyConsistency(
        oldSize: Int64, newSize: Int64, oldRoot: [UInt8], newRoot: [UInt8],
        proof: [[UInt8]]
    ) throws(MerkleProofError) {
        guard oldSize >= 0, oldSize <= newSize else { throw .sizesOutOfOrder(oldSize: oldSize, newSize: newSize) }
        if oldSize == newSize {
            guard proof.isEmpty else { throw .wrongProofLength(expected: 0, actual: proof.count) }
            guard oldRoot == newRoot else { throw .rootsDiffer }
            if oldSize == 0, oldRoot != emptyRoot { throw .notTheEmptyRoot }
            return
        }
        guard oldSize > 0 else { throw .emptyOldTree }
        try checkHashSizes(proof)
        let expected = consistencyProofLength(oldSize: oldSize, newSize: newSize)
        guard proof.count == expected else { throw .wrongProofLength(expected: expected, actual: proof.count) }

        var path = proof
        if oldSize & (oldSize - 1) == 0 { path.insert(oldRoot, at: 0) }
        var fn = oldSize - 1
        var sn = newSize - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        var fr = path[0]
        var sr = path[0]
        for c in path.dropFirst() {
            if fn & 1 == 1 || fn == sn {
                fr = nodeHash(c, fr)
                sr = nodeHash(c, sr)
                while fn & 1 == 0 && fn != 0 {
                    fn >>= 1
                    sn >>= 1
                }
            } else {
                sr = nodeHash(sr, c)
            }
            fn >>= 1
            sn >>= 1
        }
        guard fr == oldRoot else { throw .oldRootMismatch }
        guard sr == newRoot else { throw .newRootMismatch }
    }

    /// How many hashes the consistency proof from `oldSize` to `newSize` (1 ≤ old < new) has.
    package static func consistencyProofLength(oldSize: Int64, newSize: Int64) -> Int {
        var fn = oldSize - 1
        var sn = newSize - 1
        while fn & 1 == 1 {
            fn >>= 1
            sn >>= 1
        }
        // The path is the proof plus the old root when oldSize is a power of two.
        let pathLength = walkSteps(fn, sn) + 1
        return oldSize & (oldSize - 1) == 0 ? pathLength - 1 : pathLength
    }

    private static func checkHashSizes(_ proof: [[UInt8]]) throws(MerkleProofError) {
        for (index, hash) in proof.enumerated() where hash.count != hashSize {
            throw .malformedProofHash(index: index, byteCount: hash.count)
        }
    }
}
