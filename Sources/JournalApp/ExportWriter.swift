import EventStore
import JournalCore

/// `journal export`: events as NDJSON export lines in position order, from a position on, of
/// the whole log (through the borrowing scan when the store has one, `LogExport`) or of one
/// stream.
package enum ExportWriter {
    static let pageSize = 1000

    /// Writes the export lines of the events of `stream` (every stream when nil) at position
    /// `from` or later to `sink`, and flushes it.
    package static func write(
        _ store: any EventStore, stream: StreamName?, from: Int64, to sink: OutputSink
    ) throws {
        var line: [UInt8] = []
        line.reserveCapacity(4096)
        func emit(_ event: RecordedEvent) {
            line.removeAll(keepingCapacity: true)
            event.exportLine(into: &line)
            line.append(0x0A)
            sink.write(bytes: line)
        }
        if let stream {
            var version: Int64 = 0
            while true {
                let page = try store.read(stream: stream, from: version, direction: .forward, limit: pageSize)
                for event in page where event.position >= from { emit(event) }
                guard page.count == pageSize, let last = page.last else { break }
                version = last.version + 1
            }
        } else if let scanning = store as? any EventScanning {
            var export = LogExport(store: scanning, pageSize: pageSize)
            try export.run(from: from) { page in sink.write(bytes: page) }
        } else {
            var position = from
            while true {
                let page = try store.readAll(from: position, limit: pageSize)
                page.forEach(emit)
                guard page.count == pageSize, let last = page.last else { break }
                position = last.position + 1
            }
        }
        try sink.flush()
    }
}
