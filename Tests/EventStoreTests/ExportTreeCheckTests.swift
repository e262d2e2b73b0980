import EventStore
import Foundation
import JournalCore
import Testing

@Suite("Exports checked against a tree head")
struct ExportTreeCheckTests {
    @Test func theIncrementalRootIsTheTreesRootAtEverySize() throws {
        var incremental = IncrementalMerkleRoot()
        var tree = MerkleTree()
        #expect(incremental.root == Merkle.emptyRoot)
        for index in 0..<300 {
            let line = Array("line \(index)".utf8)
            incremental.append(leafLine: line)
            tree.append(leafLine: line)
            #expect(incremental.size == tree.size)
            #expect(incremental.root == (try tree.root()), "size \(index + 1)")
        }
    }

    /// `count` export-shaped lines for positions 1…count.
    static func lines(_ count: Int) -> [[UInt8]] {
        (1...count).map { position in
            Array(
                (#"{"id":"i\#(position)","stream":"3ds-s","type":"T","occurredAt":"2026-11-29T10:00:00.000Z","#
                    + #""data":{},"position":\#(position),"version":\#(position - 1),"#
                    + #""recordedAt":"2026-11-29T10:00:00.000Z","hash":"00"}"#).utf8)
        }
    }

    static func check(_ lines: [[UInt8]], size: Int, root: [UInt8]) throws(ExportVerificationError) -> Int64 {
        var check = ExportTreeCheck(size: Int64(size), root: root)
        for line in lines { try check.add(line: line) }
        try check.finish()
        return check.linesAfter
    }

    @Test func theFirstSizeLinesMustHaveTheRootAndTheRestAreCounted() throws {
        let lines = Self.lines(20)
        let root = try MerkleTree(leafLines: lines.prefix(13)).root()
        #expect(try Self.check(lines, size: 13, root: root) == 7)
        #expect(throws: ExportVerificationError.tooFewLines(lines: 12, size: 13)) {
            try Self.check(Array(lines.prefix(12)), size: 13, root: root)
        }
        var edited = lines
        edited[3] = Array(
            String(decoding: edited[3], as: UTF8.self).replacingOccurrences(of: "\"T\"", with: "\"U\"").utf8)
        #expect(
            performing: { try Self.check(edited, size: 13, root: root) },
            throws: { error in
                (error as? ExportVerificationError)?.line == 13
            })
        var dropped = lines
        dropped.remove(at: 5)
        #expect(
            performing: { try Self.check(dropped, size: 13, root: root) },
            throws: { error in
                guard case let .notAnExportLine(line, reason)? = error as? ExportVerificationError else { return false }
                return line == 6 && reason.hasPrefix("it holds position 7")
            })
        var extraKey = lines
        extraKey[0] = Array(#"{"id":"i1","x":1}"#.utf8)
        #expect(
            performing: { try Self.check(extraKey, size: 13, root: root) },
            throws: { error in
                (error as? ExportVerificationError)?.line == 1
            })
    }
}
