import EventStore
import Foundation
import JournalCore

/// Files and values the evidence tests share.
enum EvidenceFixture {
    /// The package's root folder (this file is Tests/EventStoreTests/Support/EvidenceFixtures.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The RFC 6962 Merkle test vectors of transparency-dev/merkle (`Fixtures/merkle`, its NOTICE).
    static let merkleData = packageRoot.appendingPathComponent("Tests/EventStoreTests/Fixtures/merkle")

    /// Every `.json` file below `folder`, sorted by path.
    static func jsonFiles(under folder: URL) throws -> [URL] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        return paths.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func json(_ file: URL) throws -> JSONObject {
        let bytes = try [UInt8](Data(contentsOf: file))
        guard let object = try JSONParser().parse(bytes).objectValue else {
            throw FixtureError("\(file.path): not an object")
        }
        return object
    }

    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var chars = Array(text.utf8)[...]
        while chars.count >= 2 {
            out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16)!)
            chars = chars.dropFirst(2)
        }
        return out
    }

    static func hexString(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// The leaf line of a made-up event `n` of a tree in the tests.
    static func leafLine(_ n: Int) -> [UInt8] { Array("leaf \(n)".utf8) }

    /// MTH(D[n]) straight from RFC 6962's recursive definition, over leaf hashes.
    static func naiveRoot(_ leaves: ArraySlice<[UInt8]>) -> [UInt8] {
        switch leaves.count {
        case 0: return Array(Data(base64Encoded: "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")!)
        case 1: return leaves.first!
        default:
            var k = 1
            while k * 2 < leaves.count { k *= 2 }
            let start = leaves.startIndex
            return Merkle.nodeHash(naiveRoot(leaves[start..<start + k]), naiveRoot(leaves[(start + k)...]))
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
