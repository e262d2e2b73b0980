import EventStore
import JournalCore

extension JournalCopy {
    /// What `journal copy` prints: the events copied, and that both journals verify with the
    /// same head and the same Merkle root.
    package struct Report: CommandReport {
        package var from: JournalBackend
        package var to: JournalBackend
        package var outcome: Outcome

        package init(from: JournalBackend, to: JournalBackend, _ outcome: Outcome) {
            (self.from, self.to, self.outcome) = (from, to, outcome)
        }

        package func json() -> JSONValue {
            let verified = outcome.report
            var line = JSONObject()
            line["ok"] = .bool(true)
            line["from"] = .string(from.display)
            line["to"] = .string(to.display)
            line["copied"] = .number(JSONNumber(outcome.copied))
            line["events"] = .number(JSONNumber(verified.events))
            line["streams"] = .number(JSONNumber(verified.streams))
            line["headPosition"] = .number(JSONNumber(verified.headPosition))
            line["headHash"] = .string(verified.headHash)
            line["treeRoot"] = .string(Base64.encode(outcome.tree.root))
            return .object(line)
        }

        package func textLines() -> [String] {
            let verified = outcome.report
            let resumed = outcome.start > 0 ? " (resumed after position \(outcome.start))" : ""
            let head = verified.headHash.isEmpty ? "" : ", head hash \(verified.headHash.prefix(16))…"
            return [
                "copied \(outcome.copied) events from \(from.display) to \(to.display)\(resumed)",
                "ok: both journals verify: \(verified.events) events in \(verified.streams) "
                    + "streams, head position \(verified.headPosition)\(head)",
                "ok: same Merkle root \(Base64.encode(outcome.tree.root)): checkpoints of "
                    + "\(from.display) hold on the copy"
            ]
        }
    }
}
