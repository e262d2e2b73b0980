import EventStore
import JournalCore

/// The checkpoint a proof or bundle is made against: the one `--checkpoint FILE` names (which
/// the journal must match) or the latest the journal keeps. The option is the command line's
/// (`EvidenceCheckpoint+Options.swift` there).
package enum EvidenceCheckpoint {
    package static func chosen(_ arguments: ParsedArguments, _ store: any EventStore) throws -> SignedCheckpoint {
        if let path = arguments.string("checkpoint") {
            let signed = try EvidenceFiles.checkpoint(path: path)
            try requireMatch(signed, store, named: TextRendering.printable(path))
            return signed
        }
        guard let latest = try JournalEvidence.latestCheckpoint(store) else {
            throw CLIError(
                .failure, "the journal keeps no checkpoint to prove against",
                hint: "sign one with 'journal checkpoint --key FILE', or pass --checkpoint FILE")
        }
        return latest
    }

    /// The journal's tree at the checkpoint's size must have the checkpoint's root (exit 4).
    package static func requireMatch(_ signed: SignedCheckpoint, _ store: any EventStore, named name: String) throws {
        let checkpoint = signed.checkpoint
        let size = try store.treeSize()
        guard checkpoint.size <= size else {
            throw CLIError(
                .integrity,
                "the checkpoint \(name) covers \(checkpoint.size) events, but the journal has "
                    + "only \(size): it is not the log that was signed, or it was cut back")
        }
        guard try store.treeRoot(size: checkpoint.size) == checkpoint.root else {
            throw CLIError(
                .integrity,
                "the journal's tree of its first \(checkpoint.size) events does not have the "
                    + "root of the checkpoint \(name): it is not the log that was signed")
        }
    }
}
