import EventStore
import JournalCore
import Testing

/// The C2SP tlog-tiles names and shapes a mirror is written in.
@Suite("tlog-tiles: paths, tile shapes, entry bundles")
struct TlogTilesTests {
    @Test("an index is written in groups of three digits, all but the last prefixed with x")
    func indexEncoding() {
        #expect(TlogTiles.indexPath(0) == "000")
        #expect(TlogTiles.indexPath(999) == "999")
        #expect(TlogTiles.indexPath(1000) == "x001/000")
        #expect(TlogTiles.indexPath(1_234_067) == "x001/x234/067")
        #expect(TlogTiles.indexPath(1_000_000) == "x001/x000/000")
        #expect(TlogTiles.indexPath(67) == "067")
    }

    @Test("a full tile has no suffix, a partial tile .p/W, entry bundles live under tile/entries")
    func tilePaths() {
        #expect(TlogTiles.path(level: 0, index: 1_234_067, width: 256) == "tile/0/x001/x234/067")
        #expect(TlogTiles.path(level: 1, index: 3, width: 17) == "tile/1/003.p/17")
        #expect(TlogTiles.path(level: 2, index: 0, width: 1) == "tile/2/000.p/1")
        #expect(TlogTiles.path(level: 0, index: 1000, width: 255) == "tile/0/x001/000.p/255")
        #expect(TlogTiles.entriesPath(index: 0, width: 5) == "tile/entries/000.p/5")
        #expect(TlogTiles.entriesPath(index: 1234, width: 256) == "tile/entries/x001/234")
    }

    @Test("a tree of 70,000 entries has the tiles the specification lists; 256 entries a partial level-1 tile")
    func treeShapes() {
        let levels = TlogTiles.levels(size: 70_000)
        #expect(
            levels == [
                TlogTiles.Level(level: 0, fullTiles: 273, partialWidth: 112),
                TlogTiles.Level(level: 1, fullTiles: 1, partialWidth: 17),
                TlogTiles.Level(level: 2, fullTiles: 0, partialWidth: 1)
            ])
        #expect(
            TlogTiles.levels(size: 256) == [
                TlogTiles.Level(level: 0, fullTiles: 1, partialWidth: 0),
                TlogTiles.Level(level: 1, fullTiles: 0, partialWidth: 1)
            ])
        #expect(TlogTiles.levels(size: 0).isEmpty)
        #expect(levels[0].width(ofTile: 272) == 256)
        #expect(levels[0].width(ofTile: 273) == 112)
        #expect(levels[0].width(ofTile: 274) == nil)
        #expect(TlogTiles.bundles(size: 70_000).partialWidth == 112)
        #expect(TlogTiles.bundles(size: 512) == TlogTiles.Level(level: -1, fullTiles: 2, partialWidth: 0))
    }

    @Test("an entry bundle is big-endian 2-byte lengths and entries, and an entry over 65,535 bytes is refused")
    func bundles() throws {
        let entries: [[UInt8]] = [Array("a".utf8), [], [UInt8](repeating: 7, count: 300)]
        let bytes = try TlogTiles.bundle(entries)
        #expect(Array(bytes[0..<3]) == [0, 1, UInt8(ascii: "a")])
        #expect(Array(bytes[3..<5]) == [0, 0])
        #expect(Array(bytes[5..<7]) == [1, 44])
        #expect(TlogTiles.entries(ofBundle: bytes)?.map { Array($0) } == entries)
        #expect(TlogTiles.entries(ofBundle: Array(bytes.dropLast())) == nil)
        #expect(TlogTiles.entries(ofBundle: [0]) == nil)
        #expect(try TlogTiles.bundle([[UInt8](repeating: 1, count: 65_535)]).count == 65_537)
        #expect(throws: TlogTiles.EntryTooLong(offset: 1, length: 65_536)) {
            try TlogTiles.bundle([[], [UInt8](repeating: 1, count: 65_536)])
        }
    }
}
