import EventStore
import JournalCore

/// A checkpoint the journal keeps, as `journal checkpoint` prints it: the signed note, or with
/// `--format json` its origin, size, root and note.
package struct KeptCheckpoint: CommandReport {
    package var kept: StoredCheckpoint
    /// The signer's name (the note's origin).
    package var origin: String

    package init(_ kept: StoredCheckpoint, origin: String) {
        self.kept = kept
        self.origin = origin
    }

    /// `origin` read from the note, "?" when it is not a signed checkpoint.
    package init(_ kept: StoredCheckpoint) {
        self.init(kept, origin: (try? SignedCheckpoint(parsing: kept.note).checkpoint.origin) ?? "?")
    }

    /// The latest checkpoint `store` keeps (`checkpoint --latest`).
    /// - Throws: exit 1 when it keeps none.
    package static func latest(in store: any EventStore) throws -> KeptCheckpoint {
        guard let kept = try store.checkpoints().last else {
            throw CLIError(
                .failure, "the journal keeps no checkpoint",
                hint: "sign one with 'journal checkpoint --key FILE'")
        }
        return KeptCheckpoint(kept)
    }

    package func json() -> JSONValue { .object(JournalEvidence.checkpointJSON(kept, origin: origin)) }

    package func textLines() -> [String] { TextRendering.lines(of: kept.note) }

    /// The note exactly as signed (its signature lines and cosignatures), ending in one line
    /// feed: a file for `--checkpoint`.
    package var noteFile: String {
        var note = kept.note
        while note.hasSuffix("\n\n") { note.removeLast() }
        if !note.hasSuffix("\n") { note += "\n" }
        return note
    }

    /// The line `import --sign` and `simulate --sign` print after their summary.
    package static func signedLine(_ kept: StoredCheckpoint) -> String {
        "signed checkpoint: \(kept.size) events, root \(Base64.encode(kept.root)) "
            + "('journal checkpoint --list' shows it)"
    }
}
