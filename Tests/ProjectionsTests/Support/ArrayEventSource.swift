import Glibc
import EventStore
import JournalCore
import Projections

/// An in-memory log for tests: events in position order; can be made to fail on a given read.
final class ArrayEventSource: ProjectionEventSource {
    var events: [RecordedEvent]
    /// When set, the read with this index (0-based, counting every `readAll`) throws.
    var failOnRead: Int?
    private(set) var reads = 0

    struct InjectedFailure: Error {}

    init(_ events: [RecordedEvent] = []) { self.events = events }

    func readAll(from position: Int64, limit: Int) throws -> [RecordedEvent] {
        defer { reads += 1 }
        if reads == failOnRead { throw InjectedFailure() }
        let start = events.firstIndex { $0.position >= position } ?? events.endIndex
        return Array(events[start..<min(events.endIndex, start + limit)])
    }

    func headPosition() throws -> Int64 { events.last?.position ?? 0 }
}

/// A fresh temporary database path, removed with its WAL files by `remove()`.
struct TemporaryDatabase {
    let path: String

    init() {
        path = "/tmp/projections-test-\(UInt64.random(in: 0...UInt64.max)).db"
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { _ = unlink(path + suffix) }
    }
}
