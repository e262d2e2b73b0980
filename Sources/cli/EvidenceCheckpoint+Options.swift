import JournalApp

extension EvidenceCheckpoint {
    static let option = OptionSpec(
        name: "checkpoint", value: .text(placeholder: "FILE"),
        help: "prove against this signed checkpoint (default: the latest the journal keeps)")
}
