import JournalApp
import JournalHTTP

/// `journal witness --key FILE --logs FILE --state PATH [--listen HOST:PORT] [--tokens FILE]`: a
/// witness server (spec §11, C2SP tlog-witness).
enum WitnessCommand {
    static let defaultListen = "127.0.0.1:8081"

    static let spec = CommandSpec(
        name: "witness",
        summary: "run a witness: cosign a log's checkpoints that extend the last one it cosigned",
        options: [
            OptionSpec(
                name: "key", value: .text(placeholder: "FILE"),
                help: "the witness's private key ('journal keygen NAME --out FILE --witness')"),
            OptionSpec(
                name: "logs", value: .text(placeholder: "FILE"),
                help: "the verifier keys of the logs it witnesses, one per line (origin = key name)"),
            OptionSpec(
                name: "state", value: .text(placeholder: "PATH"),
                help: "the witness's state, an SQLite file (created 0600): the last checkpoint of each log"),
            OptionSpec(
                name: "listen", value: .text(placeholder: "HOST:PORT"),
                help: "address to listen on (default: \(defaultListen); port 0 picks a free one)"),
            OptionSpec(
                name: "tokens", value: .text(placeholder: "FILE"),
                help: "bearer tokens ('journal token'; role append or admin); required beyond loopback")
        ],
        printsResults: false,
        details: """
            Runs a witness (C2SP tlog-witness) and prints "listening on http://HOST:PORT" once it
            accepts requests. POST /add-checkpoint takes "old <M>", at most 63 base64 lines of
            consistency proof, an empty line and a signed checkpoint, and answers:

              200  the cosignature line (cosignature/v1), after the new size and root are
                   stored durably in --state
              400  a malformed body, or M larger than the checkpoint's size
              403  no signature of a key in --logs for the checkpoint's origin verifies
              404  no key in --logs is named as the checkpoint's origin
              409  M is not the size last cosigned for the origin (0 when none): the body is
                   that size and a line feed (Content-Type: text/x.tlog.size)
              422  the proof does not show the checkpoint extends the one last cosigned (a
                   different root at the same size included)

            One checkpoint is handled at a time; the state survives restarts. SIGTERM or SIGINT:
            it stops accepting, finishes the requests in flight and exits 0. The journal is not
            opened (--db is ignored). Threat model and a session with two witnesses:
            docs/witnesses.md.
            """,
        examples: [
            "journal witness --key w1.key --logs logs.txt --state w1.db --listen 127.0.0.1:8081"
        ],
        validate: { arguments throws(CLIError) in
            for name in ["key", "logs", "state"] where arguments.string(name) == nil {
                throw CLIError.usage(
                    "'journal witness' needs --key FILE, --logs FILE and --state PATH (--\(name) is missing)",
                    hint: "make a key with 'journal keygen NAME --out FILE --witness'")
            }
            let address = try ListenAddress(parsing: arguments.string("listen") ?? defaultListen)
            if !address.isLoopback && arguments.string("tokens") == nil {
                throw CLIError.usage(
                    "refusing to listen on \(address.url) without --tokens",
                    hint: "create tokens with 'journal token append NAME --tokens FILE', or listen on 127.0.0.1")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let address = try ListenAddress(parsing: arguments.string("listen") ?? defaultListen)
        let files = WitnessServer.Files(
            key: arguments.string("key") ?? "", logs: arguments.string("logs") ?? "",
            state: arguments.string("state") ?? "", tokens: arguments.string("tokens"))
        try WitnessServer.run(files, listening: address, context)
    }
}
