import EventStore
import Glibc
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

/// A fresh, empty database for one test's read models: a temporary SQLite file (removed with
/// its WAL files by `remove()`) or a new PostgreSQL schema (gone with the test server).
struct TemporaryDatabase {
    /// The SQLite path or the PostgreSQL URL.
    let location: String

    init(_ backend: DatabaseBackend = .sqlite) throws {
        location = try backend.makeLocation()
    }

    /// For tests that need a file (SQLite only).
    var path: String { location }

    func remove() {
        guard !location.hasPrefix("postgres") else { return }
        for suffix in ["", "-wal", "-shm"] { _ = unlink(location + suffix) }
    }
}
