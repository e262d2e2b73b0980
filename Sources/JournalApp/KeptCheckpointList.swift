import EventStore
import JournalCore

/// `journal checkpoint --list`: the checkpoints the journal keeps, oldest first, with the
/// witnesses that cosigned each.
package struct KeptCheckpointList: CommandReport {
    package var checkpoints: [KeptCheckpoint]

    package init(_ store: any EventStore) throws {
        checkpoints = try store.checkpoints().map { KeptCheckpoint($0) }
    }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["checkpoints"] = .array(
            checkpoints.map { checkpoint in
                var entry = JournalEvidence.checkpointJSON(checkpoint.kept, origin: checkpoint.origin)
                entry["signedAt"] = .string(checkpoint.kept.signedAt.description)
                entry["cosignedBy"] = .array(checkpoint.kept.cosignatures.map { .string($0.witnessName) })
                return .object(entry)
            })
        return .object(object)
    }

    package func textLines() -> [String] {
        guard !checkpoints.isEmpty else {
            return ["no checkpoints kept; sign one with 'journal checkpoint --key FILE'"]
        }
        var rows = [["size", "root", "signedAt", "origin", "cosignedBy"]]
        for checkpoint in checkpoints {
            let kept = checkpoint.kept
            let cosigners = kept.cosignatures.map(\.witnessName).joined(separator: ", ")
            rows.append([
                "\(kept.size)", Base64.encode(kept.root), kept.signedAt.description, checkpoint.origin,
                cosigners.isEmpty ? "-" : cosigners
            ])
        }
        return TextRendering.table(rows, rightAligned: [0])
    }
}
