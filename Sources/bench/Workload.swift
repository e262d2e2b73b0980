import Domain
import EventStore
import JournalCore
import Simulator

/// One simulator event, ready for every contender: the journal's `ProposedEvent`, the stream's
/// version (for the raw baseline) and the NDJSON envelope line (for `journal import` and the peer).
struct BenchEvent: Sendable {
    let stream: StreamName
    let version: Int64
    let event: ProposedEvent
}

/// The benchmark workload: the simulator's `Simulation` on the `realistic` profile (3DS
/// transactions and card digitizations, five to one as `journal simulate`'s defaults, arriving as
/// a Poisson process and interleaved in time), cut after the requested number of events. A cut
/// journey is a legal prefix, so every event still imports and folds. The same seed gives the
/// same events. `recordedAt` is left to the store (the benchmark measures the store's own clock
/// path, as an SDK upload would).
final class Workload {
    private let simulation: Simulation

    /// A workload of about `events` events (the simulation is sized with room to spare).
    init(seed: UInt64, events: Int) {
        let transactions = max(events / 4, 100)
        // The built-in profile is checked by the simulator's tests; compiling it cannot fail.
        simulation = try! Simulation(seed: seed, transactions: transactions, digitizations: transactions / 5)
    }

    /// The next `count` events of the interleaved log (fewer only if the simulation ends).
    func next(_ count: Int) -> [BenchEvent] {
        var result: [BenchEvent] = []
        result.reserveCapacity(count)
        while result.count < count, let event = simulation.next() {
            // Generated stream names follow spec §1; a failure here is a simulator bug.
            let stream = try! StreamName(event.stream)
            result.append(
                BenchEvent(
                    stream: stream, version: event.version,
                    event: ProposedEvent(
                        id: event.id, type: event.type, occurredAt: event.occurredAt,
                        data: event.data, meta: event.meta)))
        }
        return result
    }
}

/// Writes events as NDJSON envelopes (spec §2), the format of `journal import` and the peer.
struct NDJSONWriter {
    private let file: OutputFile
    private var buffer: [UInt8] = []
    private(set) var bytes: Int64 = 0

    init(path: String) throws(BenchError) {
        file = try OutputFile(path: path)
        buffer.reserveCapacity(1 << 20)
    }

    mutating func write(_ events: [BenchEvent]) throws(BenchError) {
        for item in events {
            Self.line(item, into: &buffer)
            if buffer.count >= 1 << 20 { try flush() }
        }
    }

    mutating func close() throws(BenchError) {
        try flush()
        file.close()
    }

    private mutating func flush() throws(BenchError) {
        try file.write(buffer)
        bytes += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    static func line(_ item: BenchEvent, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.writeString(item.event.id, into: &out)
        out.append(contentsOf: #","stream":"#.utf8)
        JSONWriter.writeString(item.stream.rawValue, into: &out)
        out.append(contentsOf: #","type":"#.utf8)
        JSONWriter.writeString(item.event.type, into: &out)
        out.append(contentsOf: #","occurredAt":"#.utf8)
        JSONWriter.writeString(item.event.occurredAt.description, into: &out)
        out.append(contentsOf: #","data":"#.utf8)
        out.append(contentsOf: item.event.data)
        if let meta = item.event.meta {
            out.append(contentsOf: #","meta":"#.utf8)
            out.append(contentsOf: meta)
        }
        out.append(contentsOf: "}\n".utf8)
    }
}
