import EventStore
import JournalCore

/// What `journal import` prints and how it ends: the counts, the invalid lines (`--format
/// json`), the checkpoint signed after the commit, and exit 3 when any line was rejected or the
/// input is not NDJSON.
package struct ImportReport: CommandReport {
    package var outcome: ImportRun.Outcome
    /// The input file, as the hint for an input that is not NDJSON names it.
    package var inputPath: String
    package var rejectsPath: String?
    /// The checkpoint `--sign FILE` kept, and its signer's name.
    package var checkpoint: (kept: StoredCheckpoint, origin: String)?

    /// Signs and keeps a checkpoint with `signer` after an import that kept its journal.
    package init(
        _ outcome: ImportRun.Outcome, inputPath: String, rejectsPath: String?, signer: NoteSigner?,
        _ context: CommandContext, _ arguments: ParsedArguments
    ) throws {
        self.outcome = outcome
        self.inputPath = inputPath
        self.rejectsPath = rejectsPath
        checkpoint = try signer.flatMap { signer in
            outcome.rolledBack || outcome.keptNoJournal
                ? nil
                : (
                    try JournalEvidence.sign(
                        outcome.store ?? JournalAccess.openExistingForWriting(context, arguments), with: signer),
                    signer.name
                )
        }
    }

    private var summary: ImportRun.Summary { outcome.summary }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["lines"] = .number(JSONNumber(summary.lines))
        object["appended"] = .number(JSONNumber(outcome.rolledBack ? 0 : summary.appended))
        object["duplicates"] = .number(JSONNumber(summary.duplicates))
        object["rejected"] = .number(JSONNumber(summary.rejected))
        object["written"] = .bool(!outcome.rolledBack)
        if let rejectsPath { object["rejectsFile"] = .string(rejectsPath) }
        if summary.notNDJSON != nil { object["notNDJSON"] = .bool(true) }
        if summary.rejected > 0 { outcome.errors.addJSON(to: &object) }
        if let checkpoint {
            object["checkpoint"] = .object(JournalEvidence.checkpointJSON(checkpoint.kept, origin: checkpoint.origin))
        }
        return .object(object)
    }

    package func textLines() -> [String] {
        let lines = TextRendering.counted(summary.lines, "line")
        let duplicates = TextRendering.counted(summary.duplicates, "duplicate")
        let text: String
        if summary.notNDJSON != nil {
            text = "nothing written: the input is not NDJSON (see line \(summary.notNDJSONLine))"
        } else if outcome.rolledBack {
            text =
                "nothing written: \(summary.rejected) of \(lines) rejected (\(summary.appended) valid, \(duplicates))"
        } else if summary.appended == 0 && summary.rejected == 0 {
            text = "nothing new: \(lines) read, \(duplicates) already in the journal"
        } else {
            text = "imported \(lines): \(summary.appended) appended, \(duplicates), \(summary.rejected) rejected"
        }
        guard let checkpoint else { return [text] }
        return [text, KeptCheckpoint.signedLine(checkpoint.kept)]
    }

    /// Exit 3 when the input is not NDJSON or any line was rejected, saying what was kept.
    package var failure: CLIError? {
        if let kind = summary.notNDJSON {
            return CLIError(
                .inputRejected, ["line \(summary.notNDJSONLine): - -: \(kind.reason); nothing was written"],
                hints: [kind.hint(input: inputPath)])
        }
        guard summary.rejected > 0 else { return nil }
        let more = outcome.errors.summaryLines
        let rejected = "\(summary.rejected) of \(TextRendering.counted(summary.lines, "line")) rejected"
        if let rejectsPath {
            let valid = summary.appended == 1 ? "1 valid event" : "\(summary.appended) valid events"
            return CLIError(
                .inputRejected,
                more + ["\(rejected), written to \(TextRendering.printable(rejectsPath)); \(valid) appended"])
        }
        return CLIError(
            .inputRejected, more + ["\(rejected); nothing was written"],
            hints: [
                "fix those lines and import again, or pass --rejects FILE to append the valid "
                    + "events and set the invalid lines aside"
            ])
    }
}
