import JournalCore
import Testing

@testable import EventStore

/// The leaf line (spec §6) is written into memory sized beforehand; these tests hold
/// it to a rendering built here from the spec's wording with Swift strings, over texts that
/// need escaping, numbers at their extremes and payloads that make the scratch memory grow.
@Suite("The leaf line")
struct LeafLineTests {
    struct Case {
        var id: String
        var stream: String
        var type: String
        var occurredAt: Int64
        var recordedAt: Int64
        var data: String
        var meta: String?
        var position: Int64
        var version: Int64
        var hash: [UInt8]
    }

    /// The spec's JSON string escaping: quote, backslash, \n \r \t, other controls as \u00XX.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let digits = Array("0123456789abcdef")
                out += "\\u00" + String(digits[Int(scalar.value >> 4)]) + String(digits[Int(scalar.value & 0xF)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func expectedLine(_ c: Case) -> String {
        let hex = c.hash.map { byte in
            let digits = Array("0123456789abcdef")
            return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
        }.joined()
        var line = "{\"id\":\(quoted(c.id)),\"stream\":\(quoted(c.stream)),\"type\":\(quoted(c.type))"
        line += ",\"occurredAt\":\"\(Timestamp(millisecondsSinceEpoch: c.occurredAt))\",\"data\":\(c.data)"
        if let meta = c.meta { line += ",\"meta\":\(meta)" }
        line += ",\"position\":\(c.position),\"version\":\(c.version)"
        line += ",\"recordedAt\":\"\(Timestamp(millisecondsSinceEpoch: c.recordedAt))\",\"hash\":\"\(hex)\"}"
        return line
    }

    static func recorded(_ c: Case) throws -> RecordedEvent {
        RecordedEvent(
            position: c.position, stream: try StreamName(c.stream), version: c.version,
            id: c.id, type: c.type, occurredAt: Timestamp(millisecondsSinceEpoch: c.occurredAt),
            recordedAt: Timestamp(millisecondsSinceEpoch: c.recordedAt), data: Array(c.data.utf8),
            meta: c.meta.map { Array($0.utf8) }, hash: c.hash)
    }

    static let cases: [Case] = {
        var random = SystemRandomNumberGenerator()
        let hash = (0..<32).map { UInt8($0 * 7 + 3) }
        var cases = [
            Case(
                id: "6f1c0b1e-5a4f-4c36-9c43-2f1f5b0a9d10", stream: "3ds-1", type: "ChallengeStarted",
                occurredAt: 1_764_000_000_123, recordedAt: 1_764_000_000_456, data: #"{"amount":100}"#,
                meta: #"{"source":"sdk"}"#, position: 1, version: 1, hash: hash),
            Case(
                id: "quote\" back\\slash\nnew\rline\ttab\u{01}\u{1f}é€😀", stream: #"card-x"\y"#, type: "T\"",
                occurredAt: 0, recordedAt: -1, data: "{}", meta: nil, position: .max, version: .min, hash: hash),
            Case(
                id: "", stream: "s-1", type: "", occurredAt: 253_402_300_799_999, recordedAt: 951_782_400_000,
                data: "[]", meta: "null", position: 0, version: -42, hash: []),
            Case(
                id: "x", stream: "s-2", type: "y", occurredAt: 9, recordedAt: 10, data: "1", meta: nil,
                position: 9_999_999_999, version: 10_000_000_000, hash: hash),
            Case(
                id: "all-bytes", stream: "s-3", type: "z", occurredAt: 1, recordedAt: 2, data: "0", meta: nil,
                position: 3, version: 4, hash: (0...255).map { UInt8($0) })
        ]
        // Payloads from empty to 200 KiB, so that the scratch line grows several times.
        for size in [0, 10, 1000, 5000, 70_000, 200_000] {
            let text = "\"" + String(repeating: "a\\u00e9", count: size / 7) + "\""
            cases.append(
                Case(
                    id: "id-\(size)", stream: "3ds-\(size)", type: "Big\u{0}", occurredAt: Int64(size) * 86_400_007,
                    recordedAt: Int64.random(in: 0...4_102_444_800_000, using: &random), data: text,
                    meta: size % 2 == 0 ? #"{"k":"\#(size)"}"# : nil,
                    position: Int64.random(in: 1...Int64.max, using: &random), version: Int64(size), hash: hash))
        }
        return cases
    }()

    @Test("an event's export line is the spec's rendering, byte for byte", arguments: 0..<cases.count)
    func exportLineMatchesTheContract(index: Int) throws {
        let c = Self.cases[index]
        var line: [UInt8] = [1, 2, 3] // appended after what the array holds
        try Self.recorded(c).exportLine(into: &line)
        #expect(line == [1, 2, 3] + Array(Self.expectedLine(c).utf8))
    }

    @Test("the leaf hash from a link body is SHA-256 of 0x00 and the spec's line")
    func leafHashFromBodyHashesTheContractLine() throws {
        let hasher = ChainHasher()
        // One hasher for every case, large and small alternating: its scratch line is reused.
        for c in Self.cases + Self.cases.reversed() {
            var body: [UInt8] = []
            Array(c.id.utf8).withUnsafeBufferPointer { id in
                Array(c.data.utf8).withUnsafeBytes { data in
                    OptionalBytes.with(c.meta.map { Array($0.utf8) }) { meta in
                        _ = ChainHasher.appendBody(
                            stream: c.stream, id: id, type: c.type,
                            occurredAt: Timestamp(millisecondsSinceEpoch: c.occurredAt),
                            recordedAt: Timestamp(millisecondsSinceEpoch: c.recordedAt), data: data, meta: meta,
                            to: &body)
                    }
                }
            }
            var leaf = ChainHasher.zeroHash
            body.withUnsafeBytes { body in
                c.hash.withUnsafeBytes { hash in
                    leaf.withUnsafeMutableBytes { out in
                        hasher.leafHash(body: body, position: c.position, version: c.version, hash: hash, into: out)
                    }
                }
            }
            #expect(leaf == Merkle.leafHash(Array(Self.expectedLine(c).utf8)), "case \(c.id.prefix(12))")
        }
    }
}
