import EventStore
import JournalCore

/// `journal prove POSITION`: the C2SP tlog-proof that the event at a position is in the tree of
/// a signed checkpoint (`--checkpoint FILE`, else the latest the journal keeps).
package struct InclusionProofReport: CommandReport {
    package var position: Int64
    package var proof: TlogProof

    package init(position: Int64, _ arguments: ParsedArguments, _ store: any EventStore) throws {
        self.position = position
        let signed = try EvidenceCheckpoint.chosen(arguments, store)
        proof = try JournalEvidence.inclusion(of: position, against: signed, in: store)
    }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["position"] = .number(JSONNumber(position))
        object["index"] = .number(JSONNumber(position - 1))
        object["leaf"] = .string(String(decoding: proof.extra ?? [], as: UTF8.self))
        object["proof"] = .array(proof.proof.map { .string(Base64.encode($0)) })
        object["checkpoint"] = .string(proof.checkpoint.noteText)
        return .object(object)
    }

    package func textLines() -> [String] { TextRendering.lines(of: proof.text) }
}
