import EventStore
import JournalCore

/// `journal publish --out DIR [--entries]`: the latest kept checkpoint and its tree written as
/// static files in the layout of C2SP tlog-tiles (spec §10; `MirrorPublisher` does the work).
package struct MirrorPublication: CommandReport {
    package var report: MirrorPublisher.Report
    /// The mirror folder.
    package var directory: String
    package var entries: Bool

    /// - Throws: exit 1 when the journal keeps no checkpoint, or what `MirrorPublisher` refuses.
    package init(_ store: any EventStore, to directory: String, entries: Bool) throws {
        guard try store.latestCheckpoint() != nil else {
            throw CLIError(
                .failure, "the journal has kept no checkpoint to publish",
                hint: "sign one first: journal checkpoint --key FILE")
        }
        report = try MirrorPublisher(store: store, directory: directory, entries: entries).publish()
        self.directory = directory
        self.entries = entries
    }

    package func json() -> JSONValue {
        let checkpoint = report.checkpoint.checkpoint
        var object = JSONObject()
        object["ok"] = .bool(true)
        object["out"] = .string(directory)
        object["origin"] = .string(checkpoint.origin)
        object["size"] = .number(JSONNumber(checkpoint.size))
        object["root"] = .string(Base64.encode(checkpoint.root))
        object["previousSize"] = .number(JSONNumber(report.previousSize))
        object["tilesWritten"] = .number(JSONNumber(report.tilesWritten))
        object["bundlesWritten"] = .number(JSONNumber(report.bundlesWritten))
        object["checkpointReplaced"] = .bool(report.checkpointReplaced)
        return .object(object)
    }

    package func textLines() -> [String] {
        let checkpoint = report.checkpoint.checkpoint
        let bundles = entries ? ", \(report.bundlesWritten) entry bundles" : ""
        let previous = report.previousSize > 0 ? " (it held \(report.previousSize) before)" : ""
        return [
            "published the tree of \(checkpoint.size) events signed by \(checkpoint.origin) to "
                + "\(TextRendering.printable(directory))\(previous): \(report.tilesWritten) tiles\(bundles) written"
                + (report.checkpointReplaced ? ", checkpoint replaced" : ", checkpoint unchanged")
        ]
    }
}
