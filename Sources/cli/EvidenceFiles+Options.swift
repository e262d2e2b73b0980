import JournalApp

extension EvidenceFiles {
    /// `--key FILE` for the commands that sign, else `$JOURNAL_SIGNING_KEY`.
    static let signingKeyOption = OptionSpec(
        name: "key", value: .text(placeholder: "FILE"),
        help: "the private key file to sign with (default: $JOURNAL_SIGNING_KEY)")
    /// `--sign FILE` for `import` and `simulate`: sign a checkpoint after the commit.
    static let signOption = OptionSpec(
        name: "sign", value: .text(placeholder: "FILE"),
        help: "after the commit, sign and keep a checkpoint with this private key file")
    /// `--key VKEY` for the commands that check.
    static let verifierKeyOption = OptionSpec(
        name: "key", value: .text(placeholder: "VKEY"),
        help: "the verifier key (NAME+ID+KEY), or a file holding one per line")
}
