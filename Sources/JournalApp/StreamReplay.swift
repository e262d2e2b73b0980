import Domain
import EventStore
import JournalCore

/// Folds stored events through the domain, page by page: shared by state, replay and audit.
package enum StreamReplay {
    package struct Failure: Equatable, Sendable {
        package var version: Int64
        package var position: Int64
        package var reason: String

        package init(version: Int64, position: Int64, reason: String) {
            self.version = version
            self.position = position
            self.reason = reason
        }
    }

    package struct Outcome {
        /// nil only when the stream's name has no known category.
        var fold: StreamFold?
        /// The events folded (before a failure).
        package var events: Int
        package var failure: Failure?

        package init(fold: StreamFold?, events: Int, failure: Failure? = nil) {
            self.fold = fold
            self.events = events
            self.failure = failure
        }

        /// The aggregate's summary (empty when the stream has no known category).
        package var summary: JSONObject { fold?.summary ?? JSONObject() }

        /// Appends the compact JSON text of ``summary`` to `bytes`, without building it.
        package func writeSummary(into bytes: inout [UInt8]) {
            guard let fold else { return bytes.append(contentsOf: "{}".utf8) }
            fold.state.writeSummary(into: &bytes)
        }
    }

    static let pageSize = 512

    /// Folds `stream` through version `lastVersion` (included) and position `untilPosition`
    /// (included), calling `step` after each event folds.
    package static func fold(
        _ stream: StreamName, in store: any EventStore, through lastVersion: Int64 = .max,
        untilPosition: Int64 = .max,
        step: (RecordedEvent, StreamFold) -> Void = { _, _ in }
    ) throws -> Outcome {
        try fold(
            stream,
            pages: { version, limit in
                try store.read(stream: stream, from: version, direction: .forward, limit: limit)
            }, through: lastVersion, untilPosition: untilPosition, step: step)
    }

    /// Folds the events `pages` gives (the stream's events from a version on, at most `limit`, in
    /// version order): the journal's, or a bundle's checked events.
    package static func fold(
        _ stream: StreamName, pages: (_ fromVersion: Int64, _ limit: Int) throws -> [RecordedEvent],
        through lastVersion: Int64 = .max, untilPosition: Int64 = .max,
        step: (RecordedEvent, StreamFold) -> Void = { _, _ in }
    ) throws -> Outcome {
        var outcome = Outcome(fold: nil, events: 0)
        do {
            outcome.fold = try StreamFold(stream: stream.rawValue)
        } catch {
            outcome.failure = Failure(version: 0, position: 0, reason: error.reason)
            return outcome
        }
        let parser = JSONParser()
        var version: Int64 = 0
        while true {
            let page = try pages(version, pageSize)
            for event in page {
                guard event.version <= lastVersion, event.position <= untilPosition else { return outcome }
                let applied = event.data.withUnsafeBytes { bytes in
                    Result { () throws(RuleViolation) in
                        try outcome.fold?.apply(
                            type: event.type, dataBytes: bytes, occurredAt: event.occurredAt, parser: parser)
                    }
                }
                if case let .failure(error) = applied {
                    outcome.failure = Failure(version: event.version, position: event.position, reason: error.reason)
                    return outcome
                }
                outcome.events += 1
                if let fold = outcome.fold { step(event, fold) }
            }
            guard page.count == pageSize, let last = page.last else { return outcome }
            version = last.version + 1
        }
    }
}
