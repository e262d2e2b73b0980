import JournalApp

/// `journal keygen NAME --out FILE`: a new Ed25519 signing key (spec §6, §9). The private key
/// goes to FILE (mode 0600), the verifier key to FILE.pub (mode 0644) and stdout; neither file is
/// ever replaced. `journal keygen --public FILE` prints the verifier key of a private key file.
enum KeygenCommand {
    static let spec = CommandSpec(
        name: "keygen",
        summary: "create an Ed25519 key to sign checkpoints: private key to FILE, verifier key to FILE.pub",
        positionals: [
            PositionalSpec(
                name: "NAME",
                help: "the key's name, e.g. payments.example/journal "
                    + "(no spaces, no '+')", isRequired: false)
        ],
        options: [
            OptionSpec(
                name: "out", value: .text(placeholder: "FILE"),
                help: "the new private key file (created 0600); FILE.pub gets the verifier key (0644)",
                isRequired: true),
            OptionSpec(
                name: "public", value: .text(placeholder: "FILE"),
                help: "print the verifier key of the private key FILE instead"),
            OptionSpec(
                name: "witness", value: .flag,
                help: "a witness's cosigning key (cosignature/v1, key type 0x04) for 'journal witness'")
        ],
        usesDB: false,
        usages: [
            "journal keygen NAME --out FILE [--witness] [--format text|json]",
            "journal keygen --public FILE [--format text|json]"
        ],
        details: """
            Creates an Ed25519 key pair in the format of C2SP signed-note (Go's
            golang.org/x/mod/sumdb/note): FILE gets the private key,
            PRIVATE+KEY+NAME+ID+KEY, readable by its owner only; FILE.pub (mode 0644) and stdout
            get the verifier key, NAME+ID+KEY, which anyone may hold to check what the key signs.
            ID is 8 hex digits derived from NAME and the public key. When FILE or FILE.pub
            exists, nothing is written (exit 1). Keys made by Go's note.GenerateKey work here,
            and keys made here work there. No journal is opened.

            --public FILE prints the verifier key of the private key in FILE (which must be
            readable by its owner only), to make FILE.pub again.

            --witness makes a witness's cosigning key instead (C2SP tlog-cosignature,
            cosignature/v1: key type 0x04, which goes into the ID): 'journal witness --key FILE'
            cosigns with it, and the verifier key is the --witness-key of 'journal cosign',
            'check', 'verify' and 'replay --bundle' (docs/witnesses.md).
            """,
        examples: [
            "journal keygen payments.example/journal --out journal.key   # and journal.key.pub",
            "journal keygen --public journal.key > journal.key.pub",
            "journal keygen witness.example/w1 --out w1.key --witness   # and w1.key.pub"
        ],
        validate: { arguments throws(CLIError) in
            if arguments.string("public") != nil {
                guard arguments.positionals.isEmpty, arguments.string("out") == nil else {
                    throw CLIError.usage(
                        "'journal keygen --public FILE' takes no NAME and no --out",
                        hint: "it prints the verifier key of an existing private key")
                }
                return
            }
            guard !arguments.positionals.isEmpty else {
                throw CLIError.usage(
                    "missing NAME for 'journal keygen'", hint: "e.g. journal keygen payments.example/journal --out FILE"
                )
            }
            guard arguments.string("out") != nil else {
                throw CLIError.usage(
                    "'journal keygen' needs --out FILE for the private key",
                    hint: "the verifier key goes to FILE.pub and stdout; the private key never to stdout")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        if let path = arguments.string("public") {
            try KeyPairFiles(reading: path).print(arguments.format, context)
            return
        }
        let name = arguments.positionals[0]
        let path = arguments.string("out") ?? ""
        try KeyPairFiles(creating: name, at: path, witness: arguments.flag("witness")).print(arguments.format, context)
    }
}
