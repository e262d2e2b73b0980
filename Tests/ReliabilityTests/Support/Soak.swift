import Foundation

/// Quick form (`make test`) or long form (`make soak`, which sets `JOURNAL_SOAK=1`).
///
/// `JOURNAL_SOAK_SEED` changes every seeded choice (kill moments, fuzz mutations); the default
/// seed makes `make test` repeat the same cases. `JOURNAL_SOAK_STATS=FILE` makes each long test
/// append one line of numbers to FILE (the figures RELIABILITY.md quotes).
enum Soak {
    static let environment = ProcessInfo.processInfo.environment
    static let isOn = environment["JOURNAL_SOAK"] == "1"
    static let seed = environment["JOURNAL_SOAK_SEED"].flatMap { UInt64($0) } ?? 20_261_129

    /// `quick` in `make test`, `soak` in `make soak`.
    static func pick<T>(quick: T, soak: T) -> T { isOn ? soak : quick }

    /// Prints one line of figures and, when asked for, appends it to the stats file.
    static func report(_ test: String, _ figures: KeyValuePairs<String, Int>) {
        let text = "reliability \(test): " + figures.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        print(text)
        guard let path = environment["JOURNAL_SOAK_STATS"], !path.isEmpty else { return }
        let line = Data((text + "\n").utf8)
        if let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(line)
            try? handle.close()
        } else {
            _ = FileManager.default.createFile(atPath: path, contents: line)
        }
    }
}
