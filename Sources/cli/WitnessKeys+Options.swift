import JournalApp

extension WitnessKeys {
    static let keyOption = OptionSpec(
        name: "witness-key", value: .text(placeholder: "VKEY"),
        help: "a witness's verifier key, or a file of them (repeatable); with --quorum", repeatable: true)
    static let quorumOption = OptionSpec(
        name: "quorum", value: .integer(placeholder: "N", minimum: 1),
        help: "require valid cosignatures of at least N of the --witness-key witnesses")
}
