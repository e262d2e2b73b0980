import JournalApp

extension ReadModels {
    /// `--models FILE`, for the commands that read the read models (`query`, `find`, `report`,
    /// `project`).
    static let modelsOption = OptionSpec(
        name: "models", value: .text(placeholder: "FILE"),
        help: "keep the read models in this SQLite file instead of the journal (for a read-only journal)")
}
