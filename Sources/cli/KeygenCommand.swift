import EventStore
import JournalApp
import JournalCore

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
            let signer = try EvidenceFiles.signer(path: path)
            print(signer, keyFile: path, publicFile: nil, arguments.format, context)
            return
        }
        let name = arguments.positionals[0]
        let path = arguments.string("out") ?? ""
        let publicPath = path + ".pub"
        // Both names must be free before anything is written: a key pair is made whole or not.
        for (file, what) in [(path, "key file"), (publicPath, "verifier key file")]
        where FileSystem.entry(at: file) != .missing {
            throw CLIError(
                .failure,
                "cannot create the \(what) \(TextRendering.printable(file)): it already exists "
                    + "(a key is never overwritten); nothing was written",
                hint: "choose another --out, or print the existing key's verifier key with "
                    + "'journal keygen --public \(TextRendering.printable(path))'")
        }
        let signer: NoteSigner
        do {
            signer = try NoteSigner.generate(name: name, type: arguments.flag("witness") ? .cosignatureV1 : .ed25519)
        } catch {
            throw CLIError.usage(
                "cannot make a key named '\(TextRendering.printable(name))': \(error)",
                hint: "a key name is non-empty text without spaces or '+', e.g. payments.example/journal")
        }
        try EvidenceFiles.createNew(path, signer.privateKeyText + "\n", what: "key file")
        do {
            try EvidenceFiles.createNew(
                publicPath, signer.verifier.keyText + "\n", what: "verifier key file", permissions: 0o644)
        } catch {
            FileSystem.remove(path)
            throw error
        }
        print(signer, keyFile: path, publicFile: publicPath, arguments.format, context)
    }

    private static func print(
        _ signer: NoteSigner, keyFile: String, publicFile: String?, _ format: OutputFormat, _ context: CommandContext
    ) {
        switch format {
        case .json:
            var object = JSONObject()
            object["name"] = .string(signer.name)
            object["keyID"] = .string(String(signer.verifier.keyText.split(separator: "+")[1]))
            object["verifierKey"] = .string(signer.verifier.keyText)
            object["keyFile"] = .string(keyFile)
            if let publicFile { object["verifierKeyFile"] = .string(publicFile) }
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            context.stdout.line(signer.verifier.keyText)
        }
    }
}
