import Domain
import EventStore
import Foundation
import JournalCore
import Testing

@testable import Simulator

/// The generator's fast paths (the journey scratch buffer, inline executed commands, cached
/// stream names) give the same bytes as the plain writers and as the simulator before them.
@Suite("Fast encoding")
struct FastEncodingTests {
    /// The NDJSON with every `"simulated": true` marker taken out: `,"meta":{"simulated":true}`
    /// (an event whose meta is only the marker) and `,"simulated":true}` (the end of a first
    /// event's meta).
    static func withoutSimulatedMarker(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: #","meta":{"simulated":true}"#, with: "")
            .replacingOccurrences(of: #","simulated":true}"#, with: "}")
        return Array(text.utf8)
    }

    /// FNV-1a 64 of the NDJSON bytes.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Checksums of `journal simulate --ndjson` computed with the simulator of main at 7223aca,
    /// before the generator was optimized: the output must never change by accident. The one
    /// change made on purpose since, the `"simulated": true` marker in every event's meta, is
    /// taken out before the comparison, so it is checked to be the only change.
    @Test(
        "the NDJSON is byte-identical to the simulator before the optimizations",
        arguments: [
            (UInt64(42), 300, 100, "default", UInt64(0xfe99_560e_ff78_f263), 580_695),
            (UInt64(5), 300, 300, "coverage", UInt64(0xa687_8186_e8ac_fb70), 974_029)
        ])
    func ndjsonIsByteIdenticalToTheSimulatorBeforeTheOptimizations(
        seed: UInt64, transactions: Int, digitizations: Int, profile: String, expected: UInt64, size: Int
    ) throws {
        let marked = try SimulationSupport.ndjson(
            seed: seed, transactions: transactions, digitizations: digitizations,
            profile: try #require(WorkloadProfile.builtIn(named: profile)))
        let bytes = Self.withoutSimulatedMarker(marked)
        #expect(bytes.count < marked.count)
        #expect(bytes.count == size)
        #expect(Self.checksum(bytes) == expected)
    }

    static let samples: [JSONValue] = [
        .object(JSONObject()),
        .object(
            JSONObject([
                ("a", .null), ("b", .bool(true)), ("c", .bool(false)),
                ("d", .number(JSONNumber(uncheckedText: "-0.50e3")))
            ])),
        .object(
            JSONObject([
                ("quote\"key", .string("back\\slash \"quoted\"")), ("ctl", .string("tab\tnl\ncr\r\u{01}\u{1F}"))
            ])),
        .object(
            JSONObject([
                ("unicode", .string("é ü 漢字 🙂")), ("empty", .string("")),
                ("long", .string(String(repeating: "x", count: 5_000)))
            ])),
        .object(
            JSONObject([
                (
                    "array",
                    .array([.number(JSONNumber(1)), .string("two"), .array([]), .object(JSONObject([("n", .null)]))])
                )
            ])),
        .array([.null, .bool(true), .string("\u{7F}\u{80}")]),
        .string("plain"),
        .number(JSONNumber(uncheckedText: "12345678901234567890123"))
    ]

    @Test("the scratch buffer writes the same JSON as JSONWriter", arguments: samples)
    func scratchBufferWritesTheSameJSONAsJSONWriter(value: JSONValue) {
        let scratch = ByteScratch(capacity: 16)
        scratch.append("prefix" as StaticString)
        scratch.appendJSON(value)
        var expected = Array("prefix".utf8)
        JSONWriter.write(value, into: &expected)
        #expect(scratch.takeAll() == expected)
        #expect(scratch.count == 0)
        // Reused after takeAll, as the simulation does for every journey.
        scratch.appendJSON(value)
        #expect(scratch.takeAll() == Array(expected.dropFirst(6)))
    }

    @Test func everyEventDataMatchesJSONWriterOverManySeeds() throws {
        // Data written by the simulation (scratch buffer) equal the data of the same journeys
        // generated one by one (GeneratedEvent.data written with JSONWriter): compared through the
        // replay, every event of 20 seeds must parse back to the object JSONWriter writes.
        for seed in UInt64(1)...20 {
            for event in try SimulationSupport.events(seed: seed, transactions: 60, digitizations: 30) {
                let parsed = try JSONParser().parse(event.data)
                var rewritten: [UInt8] = []
                JSONWriter.write(parsed, into: &rewritten)
                #expect(rewritten == event.data, "seed \(seed) \(event.type)")
            }
        }
    }

    @Test func generateBuildsEveryBatchWithoutAStore() throws {
        let simulation = try Simulation(seed: 3, transactions: 200, digitizations: 50)
        let report = try SimulationAppender(batchSize: 97).generate(simulation)
        #expect(report.events == simulation.statistics.events)
        #expect(report.events > 0)
        #expect(report.transactions == (report.events + 96) / 97)
        #expect(report.written == 0)
    }
}

@Suite("Escape scan")
struct EscapeScanTests {
    @Test func theWordScanFindsEveryByteThatNeedsEscapingAtEveryPosition() {
        for length in [1, 7, 8, 9, 16, 23] {
            for position in 0..<length {
                for byte in UInt8(0)...UInt8(255) {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    let expected = byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                    let found = bytes.withUnsafeBufferPointer { ByteScratch.needsEscaping($0) }
                    #expect(found == expected, "byte \(byte) at \(position) of \(length)")
                }
            }
        }
    }
}
