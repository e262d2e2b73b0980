import EventStore
import JournalCore

/// The stream of a checked bundle as stored events: what `replay --bundle` folds, with no
/// journal.
package struct BundleStream {
    package let stream: StreamName
    package let events: [RecordedEvent]

    /// The events of `verified`, which its checks have passed.
    /// - Throws: exit 4 when an event lacks a field of the journal's events.
    package init(_ verified: VerifiedBundle) throws {
        events = try verified.events.map { event throws(CLIError) in try RecordedEvent(leaf: event.object) }
        stream = try StreamName(verified.stream)
    }

    /// At most `limit` events from version `version` on, in version order.
    package func page(from version: Int64, limit: Int) -> [RecordedEvent] {
        let start = Int(clamping: max(0, version))
        return start < events.count ? Array(events[start..<min(events.count, start + limit)]) : []
    }
}
