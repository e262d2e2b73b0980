import EventStore
import JournalCore

/// The evidence the journal gives about itself: a signed checkpoint of its head, the proof
/// that an event is in a checkpoint's tree, a stream's bundle (docs/evidence.md). The commands
/// `checkpoint`, `prove` and `bundle` and the HTTP routes answer with these.
package enum JournalEvidence {
    /// Signs the head of `store` with `signer` and keeps the checkpoint (also after `import
    /// --sign` and `simulate --sign`).
    package static func sign(_ store: any EventStore, with signer: NoteSigner) throws -> StoredCheckpoint {
        try store.checkForCuts() // never vouch for a log cut behind the journal's back (exit 4)
        let head = try store.treeHead()
        guard head.size > 0 else {
            throw CLIError(
                .failure, "the journal is empty: there is no tree head to sign",
                hint: "append events first ('journal import FILE')")
        }
        let signed = try SignedCheckpoint(
            signing: Checkpoint(origin: signer.name, size: head.size, root: head.root),
            with: signer)
        return try store.keepCheckpoint(note: signed.noteText, size: head.size, root: head.root)
    }

    /// The latest checkpoint the journal keeps, nil when it keeps none.
    package static func latestCheckpoint(_ store: any EventStore) throws -> SignedCheckpoint? {
        guard let kept = try store.latestCheckpoint() else { return nil }
        do {
            return try SignedCheckpoint(parsing: kept.note)
        } catch {
            throw CLIError(.integrity, "the journal's latest checkpoint (size \(kept.size)) is damaged: \(error)")
        }
    }

    package static func checkpointJSON(_ kept: StoredCheckpoint, origin: String) -> JSONObject {
        var object = JSONObject()
        object["origin"] = .string(origin)
        object["size"] = .number(JSONNumber(kept.size))
        object["root"] = .string(Base64.encode(kept.root))
        object["note"] = .string(kept.note)
        return object
    }

    /// The tlog-proof of the event at `position` in the tree of `signed` (also `GET /v1/proof/{p}`).
    /// - Throws: exit 1 when the position is not in that tree.
    package static func inclusion(of position: Int64, against signed: SignedCheckpoint, in store: any EventStore) throws
        -> TlogProof
    {
        let size = signed.checkpoint.size
        guard position >= 1 && position <= size else {
            throw CLIError(
                .failure, "position \(position) is not in the checkpoint's tree of \(size) events",
                hint: "sign a newer checkpoint with 'journal checkpoint --key FILE'")
        }
        return TlogProof(
            extra: try store.leafLine(position: position), index: position - 1,
            proof: try store.inclusionProof(index: position - 1, size: size), checkpoint: signed)
    }

    /// The bundle of `stream`'s events in the tree of `signed` (also `GET /v1/bundle/{stream}`).
    /// - Throws: exit 1 when the stream has no event in that tree.
    package static func bundle(_ stream: StreamName, against signed: SignedCheckpoint, in store: any EventStore) throws
        -> EvidenceBundle
    {
        let size = signed.checkpoint.size
        var events: [EvidenceBundle.Event] = []
        var version: Int64 = 0
        var line: [UInt8] = []
        paging: while true {
            let page = try store.read(stream: stream, from: version, direction: .forward, limit: 512)
            for event in page {
                guard event.position <= size else { break paging }
                line.removeAll(keepingCapacity: true)
                event.exportLine(into: &line)
                events.append(
                    EvidenceBundle.Event(
                        position: event.position, leaf: String(decoding: line, as: UTF8.self),
                        proof: try store.inclusionProof(index: event.position - 1, size: size)))
            }
            guard page.count == 512, let last = page.last else { break }
            version = last.version + 1
        }
        guard !events.isEmpty else {
            throw CLIError(
                .failure, "\(stream) has no events in the checkpoint's tree of \(size) events",
                hint: "sign a newer checkpoint with 'journal checkpoint --key FILE'")
        }
        return EvidenceBundle(stream: stream.rawValue, checkpoint: signed.noteText, events: events)
    }
}
