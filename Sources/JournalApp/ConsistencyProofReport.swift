import EventStore
import JournalCore

/// `journal prove --consistency OLD`: the RFC 6962 consistency proof from the tree of the
/// checkpoint file OLD to the tree of `--checkpoint NEW` (or the latest kept), both matched
/// against the journal first (exit 4 when one does not match).
package struct ConsistencyProofReport: CommandReport {
    package var from: Int64
    package var to: Int64
    package var proof: [[UInt8]]

    package init(from oldPath: String, _ arguments: ParsedArguments, _ store: any EventStore) throws {
        let old = try EvidenceFiles.checkpoint(path: oldPath)
        try EvidenceCheckpoint.requireMatch(old, store, named: TextRendering.printable(oldPath))
        let new = try EvidenceCheckpoint.chosen(arguments, store)
        (from, to) = (old.checkpoint.size, new.checkpoint.size)
        guard from <= to else {
            throw CLIError(
                .failure, "the old checkpoint (size \(from)) is newer than the new one (size \(to))",
                hint: "give the older checkpoint as --consistency OLD and the newer as --checkpoint NEW")
        }
        proof = try store.consistencyProof(from: from, to: to)
    }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["fromSize"] = .number(JSONNumber(from))
        object["toSize"] = .number(JSONNumber(to))
        object["proof"] = .array(proof.map { .string(Base64.encode($0)) })
        return .object(object)
    }

    package func textLines() -> [String] { proof.map { Base64.encode($0) } }
}
