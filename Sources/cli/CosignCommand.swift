import JournalApp

/// `journal cosign --witness URL --witness-key VKEY [...] [--key SKEY]`: collect witnesses'
/// cosignatures of the latest kept checkpoint (spec §11).
enum CosignCommand {
    static let spec = CommandSpec(
        name: "cosign",
        summary: "have witnesses cosign the latest kept checkpoint, and keep their cosignatures",
        options: [
            OptionSpec(
                name: "witness", value: .text(placeholder: "URL"),
                help: "a witness's submission URL, http://HOST:PORT (repeatable)", repeatable: true),
            OptionSpec(
                name: "witness-key", value: .text(placeholder: "VKEY"),
                help: "the verifier key of the --witness before it (repeatable, in the same order)",
                repeatable: true),
            OptionSpec(
                name: "key", value: .text(placeholder: "FILE"),
                help: "sign and keep a checkpoint of the head first, with this private key")
        ],
        details: """
            Sends the latest checkpoint the journal keeps (with --key, one it signs and keeps
            now) to each witness (C2SP tlog-witness: POST <URL>/add-checkpoint), with the tree
            size the journal last knew that witness to hold (0 at first) and the consistency
            proof from it. A witness answering 409 names the size it holds: the request is sent
            once more from there. Each cosignature is checked against that witness's key before
            the journal keeps it with the checkpoint; 'checkpoint --latest', 'prove', 'bundle'
            and GET /v1/checkpoint then carry it. Prints the checkpoint with the cosignature
            lines after the log's signature.

            Exit 0 when every witness cosigned; 1 naming each witness that could not be reached
            or refused (the cosignatures of the others are kept). Only http:// URLs (a witness
            elsewhere is reached through a TLS proxy). Threat model: docs/witnesses.md.
            """,
        examples: [
            "journal cosign --witness http://127.0.0.1:8081 --witness-key \"$(cat w1.vkey)\" "
                + "--witness http://127.0.0.1:8082 --witness-key w2.vkey"
        ],
        validate: { arguments throws(CLIError) in
            let urls = arguments.strings("witness")
            let keys = arguments.strings("witness-key")
            guard !urls.isEmpty, urls.count == keys.count else {
                throw CLIError.usage(
                    "'journal cosign' takes one --witness-key VKEY for each --witness URL "
                        + "(\(urls.count) URLs, \(keys.count) keys)",
                    hint: "e.g. --witness http://127.0.0.1:8081 --witness-key w1.vkey")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let witnesses = try CosignRun.witnesses(
            urls: arguments.strings("witness"), keys: arguments.strings("witness-key"))
        let signer = try EvidenceFiles.signer(arguments, context, environment: false)
        let store = try JournalAccess.openExistingForWriting(context, arguments)
        let run = try CosignRun(witnesses, signer: signer, store: store, now: context.now)
        try run.print(arguments.format, context)
    }
}
