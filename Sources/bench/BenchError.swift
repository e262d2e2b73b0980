/// Why a benchmark could not run: the step and what went wrong (never payload bytes).
struct BenchError: Error, CustomStringConvertible {
    let step: String
    let reason: String

    init(_ step: String, _ reason: String) {
        self.step = step
        self.reason = reason
    }

    var description: String { "\(step): \(reason)" }
}
