import EventStore
import JournalCore

/// What `journal verify` found: the journal intact (its hash chain, positions, versions and
/// Merkle tree), and the signed checkpoint it was held to; or the first bad position (exit 4).
package struct JournalVerification: CommandReport {
    /// What the store's walk found: its counts and head, or the first event that does not check.
    package let outcome: Result<VerifyReport, EventStoreError>
    /// The checkpoint the journal is the log of, or an append-only extension of, once checked.
    package var heldTo: Checkpoint?
    private let store: any EventStore

    /// Walks every event of `store` in position order; `progress` makes the progress line for
    /// the events to check.
    /// - Throws: the store's errors other than a failed integrity check, which is the outcome.
    package init(_ store: any EventStore, progress: (_ total: Int64?) -> ProgressReporter?) throws {
        let progress = progress(try? store.headPosition())
        var checked: Int64 = 0
        do {
            let report = try store.verify { count in
                checked = count
                progress?.update(done: count, events: count)
            }
            checked = report.events
            outcome = .success(report)
        } catch {
            outcome = .failure(error)
        }
        progress?.finish(done: checked, events: checked)
        if case let .failure(error) = outcome, error.code != .integrity { throw error }
        self.store = store
    }

    package func json() -> JSONValue {
        var line = JSONObject()
        switch outcome {
        case let .failure(error):
            line["ok"] = .bool(false)
            line["firstBadPosition"] = .number(JSONNumber(error.position ?? 0))
            line["reason"] = .string(error.message)
        case let .success(report):
            line["ok"] = .bool(true)
            if let heldTo {
                var checkpoint = JSONObject()
                checkpoint["origin"] = .string(heldTo.origin)
                checkpoint["size"] = .number(JSONNumber(heldTo.size))
                checkpoint["root"] = .string(Base64.encode(heldTo.root))
                line["checkpoint"] = .object(checkpoint)
            }
            line["events"] = .number(JSONNumber(report.events))
            line["streams"] = .number(JSONNumber(report.streams))
            line["headPosition"] = .number(JSONNumber(report.headPosition))
            line["headHash"] = .string(report.headHash)
            // The head that was verified, as a checkpoint would sign it (a journal of an older
            // version opened read-only has no tree yet).
            if let root = try? store.treeRoot(size: report.headPosition) {
                line["treeSize"] = .number(JSONNumber(report.headPosition))
                line["root"] = .string(Base64.encode(root))
            }
        }
        return .object(line)
    }

    /// Nothing on stdout for a journal that does not check: the error says it.
    package func textLines() -> [String] {
        guard case let .success(report) = outcome else { return [] }
        let head = report.headHash.isEmpty ? "" : ", head hash \(report.headHash.prefix(16))…"
        var lines = [
            "ok: \(TextRendering.counted(report.events, "event")) in "
                + "\(TextRendering.counted(report.streams, "stream")) intact "
                + "(hash chain, positions, versions); head position \(report.headPosition)\(head)"
        ]
        if let heldTo {
            lines.append(
                "ok: the journal is the log \(heldTo.origin) signed at \(heldTo.size) events, "
                    + "or an append-only extension of it")
        }
        return lines
    }

    package var failure: CLIError? {
        guard case let .failure(error) = outcome else { return nil }
        let position = error.position ?? 0
        return CLIError(
            .integrity,
            error.message.contains("position \(position)")
                ? error.message : "first bad position \(position): \(error.message)",
            hint: "'journal audit STREAM' marks each event whose hash does not check")
    }
}
