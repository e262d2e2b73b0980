import EventStore
import JournalCore

/// What `journal verify --mirror DIR` found: the mirror (C2SP tlog-tiles files) checks against
/// itself, and the journal, when one is given, extends it.
package struct MirrorVerification: CommandReport {
    package let directory: String
    package let verified: MirrorVerifier.Verified
    /// The journal's tree size, once it was found to extend the mirror.
    package private(set) var journalSize: Int64?

    /// Checks the mirror in `directory`: its checkpoint signed by one of `verifiers`, every tile
    /// and entry bundle against it.
    /// - Throws: exit 4 naming the first file that does not check.
    package init(directory: String, verifiers: [NoteVerifier]) throws {
        self.directory = directory
        verified = try MirrorVerifier.verify(MirrorReader(directory: directory), verifiers: verifiers)
    }

    /// Checks that `store`'s tree at the mirror's size has the mirror's root (exit 4 when not).
    package mutating func requireExtension(by store: any EventStore) throws {
        let checkpoint = verified.checkpoint.checkpoint
        let size = try store.treeSize()
        guard size >= checkpoint.size, try store.treeRoot(size: checkpoint.size) == checkpoint.root else {
            throw CLIError(
                .integrity,
                "the journal does not extend the mirror \(TextRendering.printable(directory)): "
                    + (size < checkpoint.size
                        ? "it has \(size) events, the mirror \(checkpoint.size)"
                        : "its tree at \(checkpoint.size) events has another root"),
                hint: "'journal verify' checks the journal itself")
        }
        journalSize = size
    }

    package func json() -> JSONValue {
        let checkpoint = verified.checkpoint.checkpoint
        var mirror = JSONObject()
        mirror["origin"] = .string(checkpoint.origin)
        mirror["size"] = .number(JSONNumber(checkpoint.size))
        mirror["root"] = .string(Base64.encode(checkpoint.root))
        mirror["tiles"] = .number(JSONNumber(verified.tiles))
        if let entries = verified.entries { mirror["entries"] = .number(JSONNumber(entries)) }
        var line = JSONObject()
        line["ok"] = .bool(true)
        line["mirror"] = .object(mirror)
        if let journalSize {
            var journal = JSONObject()
            journal["extendsMirror"] = .bool(true)
            journal["treeSize"] = .number(JSONNumber(journalSize))
            line["journal"] = .object(journal)
        }
        return .object(line)
    }

    package func textLines() -> [String] {
        let checkpoint = verified.checkpoint.checkpoint
        let entries = verified.entries.map { "; \($0) entries hash to the level-0 tiles" } ?? "; no entry bundles"
        var lines = [
            "ok: the mirror \(TextRendering.printable(directory)) holds the tree of \(checkpoint.size) events "
                + "signed by \(checkpoint.origin): \(verified.tiles) tiles hash to the checkpoint's root\(entries)"
        ]
        if let journalSize {
            lines.append(
                "ok: the journal (\(journalSize) events) is the mirror's log or an append-only extension of it")
        }
        return lines
    }
}
