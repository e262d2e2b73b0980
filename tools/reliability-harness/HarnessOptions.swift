/// `--name value` pairs, nothing else.
struct HarnessOptions {
    private var values: [String: String] = [:]

    init(_ arguments: [String]) throws(HarnessError) {
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard name.hasPrefix("--"), index + 1 < arguments.count else {
                throw .usage("expected --name value, got \(name)")
            }
            values[String(name.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
    }

    func string(_ name: String) throws(HarnessError) -> String {
        guard let value = values[name] else { throw .usage("missing --\(name)") }
        return value
    }

    func int(_ name: String, default fallback: Int? = nil) throws(HarnessError) -> Int {
        guard let text = values[name] else {
            if let fallback { return fallback }
            throw .usage("missing --\(name)")
        }
        guard let value = Int(text) else { throw .usage("--\(name) takes an integer, got \(text)") }
        return value
    }
}

struct HarnessError: Error {
    var status: Int32
    var message: String

    static func usage(_ message: String) -> HarnessError { HarnessError(status: 2, message: message) }
    static func failure(_ message: String) -> HarnessError { HarnessError(status: 1, message: message) }
}
