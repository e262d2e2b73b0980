import EventStore
import JournalCore

/// `--witness-key VKEY` (repeatable, or a file of keys) and `--quorum N` of the commands that
/// check a checkpoint (spec §11): the checkpoint must carry valid cosignatures of at least N
/// of those witnesses, else exit 4 saying how many held. The options are the command line's
/// (`WitnessKeys+Options.swift` there).
package enum WitnessKeys {
    /// Usage errors before any file is read: --quorum needs keys, and keys need a quorum.
    package static func validate(_ arguments: ParsedArguments) throws(CLIError) {
        let keys = !arguments.strings("witness-key").isEmpty
        if keys != (arguments.integer("quorum") != nil) {
            throw CLIError.usage(
                "--witness-key and --quorum go together",
                hint: "e.g. --witness-key w1.vkey --witness-key w2.vkey --quorum 2")
        }
    }

    /// The witnesses' keys given, each once; empty when none.
    package static func keys(_ arguments: ParsedArguments) throws(CLIError) -> [NoteVerifier] {
        var keys: [NoteVerifier] = []
        for value in arguments.strings("witness-key") {
            for key in try EvidenceFiles.verifiers(value: value, option: "witness-key") where !keys.contains(key) {
                guard key.type == .cosignatureV1 else {
                    throw CLIError(
                        .failure, "--witness-key \(key.name) is \(key.type.summary), not a witness key",
                        hint: "a witness key is made with 'journal keygen NAME --out FILE --witness'")
                }
                keys.append(key)
            }
        }
        return keys
    }

    /// The witnesses of `--witness-key` that cosigned `checkpoint`; nil without `--quorum`.
    package static func cosigners(_ arguments: ParsedArguments, on checkpoint: SignedCheckpoint) throws(CLIError)
        -> [NoteVerifier]?
    {
        guard arguments.integer("quorum") != nil else { return nil }
        return checkpoint.note.cosigners(among: try keys(arguments))
    }

    /// Checks the quorum of `--witness-key`/`--quorum` on `checkpoint` (nothing without them).
    /// - Throws: exit 4 saying how many of the witnesses' cosignatures held, and whose.
    package static func requireQuorum(_ arguments: ParsedArguments, on checkpoint: SignedCheckpoint) throws(CLIError) {
        guard let quorum = arguments.integer("quorum") else { return }
        let keys = try keys(arguments)
        guard quorum <= keys.count else {
            throw CLIError.usage("--quorum \(quorum) is more than the \(keys.count) witness keys given")
        }
        let held = checkpoint.note.cosigners(among: keys)
        guard held.count >= quorum else {
            let names = held.isEmpty ? "" : " (\(held.map(\.name).joined(separator: ", ")))"
            throw CLIError(
                .integrity,
                "the checkpoint has valid cosignatures of \(held.count) of the \(keys.count) witnesses given"
                    + "\(names), fewer than the quorum of \(quorum)",
                hint: "collect them with 'journal cosign', or check against a checkpoint the witnesses cosigned")
        }
    }
}
