import EventStore
import JournalCore

/// Per-event hash checks for `audit`, recomputed independently of the store from the chain
/// layout it documents (`Sources/Evidence/ChainHasher.swift`):
///
/// `hash = SHA-256("JRNLEV01" ‖ previous hash (32 bytes, zeros at position 1) ‖ position (Int64 BE)
///  ‖ version (Int64 BE) ‖ stream ‖ id ‖ type (each UInt32 BE length + UTF-8) ‖ occurredAt ms
///  (Int64 BE) ‖ recordedAt ms (Int64 BE) ‖ data (UInt32 BE length + bytes) ‖ meta flag (1 byte)
///  [‖ meta (UInt32 BE length + bytes)])`
package enum IntegrityCheck {
    static let zeroHash = [UInt8](repeating: 0, count: 32)

    /// True when the event's stored hash equals the link recomputed from its content and the
    /// stored hash of the event at the previous position.
    package static func hashChecks(_ event: RecordedEvent, in store: any EventStore) throws -> Bool {
        var previous = zeroHash
        if event.position > 1 {
            guard let before = try store.readAll(from: event.position - 1, limit: 1).first,
                before.position == event.position - 1
            else { return false }
            previous = before.hash
        }
        return link(event, previous: previous) == event.hash
    }

    static func link(_ event: RecordedEvent, previous: [UInt8]) -> [UInt8] {
        var encoder = LinkEncoder(capacity: 128 + event.data.count + (event.meta?.count ?? 0))
        encoder.bytes.append(contentsOf: "JRNLEV01".utf8)
        encoder.bytes.append(contentsOf: previous)
        encoder.append64(event.position)
        encoder.append64(event.version)
        encoder.append(sized: Array(event.stream.rawValue.utf8))
        encoder.append(sized: Array(event.id.utf8))
        encoder.append(sized: Array(event.type.utf8))
        encoder.append64(event.occurredAt.millisecondsSinceEpoch)
        encoder.append64(event.recordedAt.millisecondsSinceEpoch)
        encoder.append(sized: event.data)
        if let meta = event.meta {
            encoder.bytes.append(1)
            encoder.append(sized: meta)
        } else {
            encoder.bytes.append(0)
        }
        let digest = SHA256Digest()
        digest.update(encoder.bytes)
        return Hex.bytes(digest.finish())
    }
}

private struct LinkEncoder {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append64(_ value: Int64) {
        let bits = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }

    mutating func append(sized part: [UInt8]) {
        let count = UInt32(truncatingIfNeeded: part.count)
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: count >> UInt32(shift)))
        }
        bytes.append(contentsOf: part)
    }
}
