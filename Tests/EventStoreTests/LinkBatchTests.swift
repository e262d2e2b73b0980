import JournalCore
import Testing

@testable import EventStore

@Suite("A scan's link batch")
struct LinkBatchTests {
    /// One event as stored: packed or text id, with or without meta.
    struct Row {
        var stream = "3ds-0b6f1c1e-5a4f-4c36-9c43-2f1f5b0a9d10"
        var id = "6f1c0b1e-5a4f-4c36-9c43-2f1f5b0a9d10"
        var type = "ChallengeStarted"
        var data: [UInt8] = Array(#"{"amount":100}"#.utf8)
        var meta: [UInt8]? = Array(#"{"source":"sdk"}"#.utf8)
    }

    static let rows: [Row] = [
        Row(),
        Row(id: "ORDER-17", meta: nil),
        Row(stream: "card-1", id: "6F1C0B1E-5A4F-4C36-9C43-2F1F5B0A9D10", type: "Tokenized", data: []),
        Row(data: Array(repeating: 0x41, count: 3_000), meta: [])
    ]

    /// The rows' stored hashes as the writers compute them, chained from position 1.
    static func chain(_ rows: [Row]) throws -> [[UInt8]] {
        let hasher = ChainHasher()
        var previous = ChainHasher.zeroHash
        var hashes: [[UInt8]] = []
        for (index, row) in rows.enumerated() {
            let hash = row.data.withUnsafeBytes { data in
                (row.meta ?? []).withUnsafeBytes { meta in
                    hasher.hash(
                        previous: previous, position: Int64(index + 1), version: Int64(index), stream: row.stream,
                        id: row.id, type: row.type, occurredAt: Timestamp(millisecondsSinceEpoch: 1_000 + Int64(index)),
                        recordedAt: Timestamp(millisecondsSinceEpoch: 2_000), data: data,
                        meta: row.meta == nil ? nil : meta)
                }
            }
            hashes.append(hash)
            previous = hash
        }
        return hashes
    }

    /// A batch of the rows from position 1, ids packed when they are lowercase canonical UUIDs.
    static func batch(_ rows: [Row], hashes: [[UInt8]]) -> LinkBatch {
        let batch = LinkBatch(limit: 8, expected: 1)
        ChainHasher.zeroHash.withUnsafeBytes { batch.start(previous: $0) }
        for (index, row) in rows.enumerated() {
            let packed = EventIDCoding.packed(row.id)
            let idBytes = packed ?? Array(row.id.utf8)
            Array(row.stream.utf8).withUnsafeBytes { stream in
                Array(row.type.utf8).withUnsafeBytes { type in
                    idBytes.withUnsafeBytes { id in
                        row.data.withUnsafeBytes { data in
                            (row.meta ?? []).withUnsafeBytes { meta in
                                hashes[index].withUnsafeBytes { hash in
                                    batch.add(
                                        position: Int64(index + 1), version: Int64(index), stream: stream,
                                        id: packed == nil ? .text(id) : .packed(id), type: type,
                                        occurredAt: 1_000 + Int64(index), recordedAt: 2_000, data: data,
                                        meta: row.meta == nil ? nil : meta, hash: hash)
                                }
                            }
                        }
                    }
                }
            }
        }
        return batch
    }

    @Test("a batch recomputes each link as the writers hash it (packed and text ids, with and without meta)")
    func aBatchRecomputesTheWritersLinks() throws {
        let hashes = try Self.chain(Self.rows)
        #expect(Self.batch(Self.rows, hashes: hashes).failure() == nil)
    }

    @Test("a batch names the first event whose content or stored hash differs", arguments: [1, 2, 3, 4])
    func aBatchNamesTheFirstBadEvent(position: Int) throws {
        let hashes = try Self.chain(Self.rows)
        var changed = Self.rows
        changed[position - 1].data.append(0x20)
        let failure = Self.batch(changed, hashes: hashes).failure()
        #expect(failure?.position == Int64(position))
        var damaged = hashes
        damaged[position - 1] = Array(damaged[position - 1].prefix(31))
        #expect(Self.batch(Self.rows, hashes: damaged).failure()?.position == Int64(position))
    }
}
