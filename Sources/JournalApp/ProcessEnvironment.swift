import JournalCore

/// The environment variables a command reads (`JOURNAL_DB`, `JOURNAL_SIGNING_KEY`, …), looked up
/// by name when asked for: a command does not copy the whole environment into a dictionary at
/// start to read one or two variables of it (docs/benchmarks-history.md, "Evidence, checked reads and the
/// streams read model", process start). A fixed set of values can stand in for it.
package struct ProcessEnvironment: Sendable, ExpressibleByDictionaryLiteral {
    /// Nil: the process's own environment.
    private let values: [String: String]?

    /// The process's environment.
    static let process = ProcessEnvironment(values: nil)

    private init(values: [String: String]?) { self.values = values }

    init(_ values: [String: String]) { self.values = values }

    package init(dictionaryLiteral elements: (String, String)...) {
        self.values = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    package subscript(name: String) -> String? {
        guard let values else { return CurrentProcess.variable(name) }
        return values[name]
    }
}
