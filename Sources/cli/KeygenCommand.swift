import EventStore
import JournalCore

/// `journal keygen NAME --out FILE`: a new Ed25519 signing key (contract §6). The private key goes
/// to FILE (mode 0600, never replaced), the verifier key to stdout.
enum KeygenCommand {
    static let spec = CommandSpec(
        name: "keygen",
        summary: "create an Ed25519 key to sign checkpoints: private key to a file, verifier key to stdout",
        positionals: [
            PositionalSpec(
                name: "NAME",
                help: "the key's name, e.g. payments.example/journal "
                    + "(no spaces, no '+')", isRequired: true)
        ],
        options: [
            OptionSpec(
                name: "out", value: .text(placeholder: "FILE"),
                help: "the new private key file (required; created 0600, never overwritten)"),
            OptionSpec(
                name: "witness", value: .flag,
                help: "a witness's cosigning key (cosignature/v1, key type 0x04) for 'journal witness'")
        ],
        details: """
            Creates an Ed25519 key pair in the format of C2SP signed-note (Go's
            golang.org/x/mod/sumdb/note): FILE gets the private key,
            PRIVATE+KEY+NAME+ID+KEY, readable by its owner only; stdout gets the verifier key,
            NAME+ID+KEY, which anyone may hold to check what the key signs. ID is 8 hex digits
            derived from NAME and the public key. Keys made by Go's note.GenerateKey work here,
            and keys made here work there. No journal is opened.

            --witness makes a witness's cosigning key instead (C2SP tlog-cosignature,
            cosignature/v1: key type 0x04, which goes into the ID): 'journal witness --key FILE'
            cosigns with it, and the verifier key is the --witness-key of 'journal cosign',
            'check', 'verify' and 'replay --bundle' (docs/witnesses.md).
            """,
        examples: [
            "journal keygen payments.example/journal --out journal.key > journal.vkey",
            "journal keygen witness.example/w1 --out w1.key --witness > w1.vkey"
        ],
        validate: { arguments throws(CLIError) in
            guard arguments.string("out") != nil else {
                throw CLIError.usage(
                    "'journal keygen' needs --out FILE for the private key",
                    hint: "the verifier key is printed on stdout; the private key never is")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let name = arguments.positionals[0]
        let path = arguments.string("out") ?? ""
        let signer: NoteSigner
        do {
            signer = try NoteSigner.generate(name: name, type: arguments.flag("witness") ? .cosignatureV1 : .ed25519)
        } catch {
            throw CLIError.usage(
                "cannot make a key named '\(Help.printable(name))': \(error)",
                hint: "a key name is non-empty text without spaces or '+', e.g. payments.example/journal")
        }
        try EvidenceFiles.createNew(path, signer.privateKeyText + "\n", what: "key file")
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["name"] = .string(signer.name)
            object["keyID"] = .string(String(signer.verifier.keyText.split(separator: "+")[1]))
            object["verifierKey"] = .string(signer.verifier.keyText)
            object["keyFile"] = .string(path)
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            context.stdout.line(signer.verifier.keyText)
        }
    }
}
