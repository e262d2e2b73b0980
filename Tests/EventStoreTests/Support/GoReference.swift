import Foundation

/// Runs tools/tlog-check/main.go, Go's reference note and tlog code, on requests (one per line;
/// see the program's comment) and returns its answers, one per request.
enum GoReference {
    static let sources = "/usr/share/gocode"

    /// The `go` executable on PATH (or Debian's), or nil.
    static let goPath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/go" } + ["/usr/lib/go/bin/go"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var hasXMod: Bool {
        FileManager.default.fileExists(atPath: "\(sources)/src/golang.org/x/mod/sumdb/note/note.go")
            && FileManager.default.fileExists(atPath: "\(sources)/src/golang.org/x/mod/sumdb/tlog/tlog.go")
    }

    static var available: Bool { goPath != nil && hasXMod }

    /// In CI (the CI environment variable set) a missing Go toolchain fails the tests instead of
    /// skipping them.
    static var required: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false }

    static var whyMissing: String {
        "the Go cross-check needs `go` and golang.org/x/mod under \(sources) (Debian: golang-go "
            + "golang-golang-x-mod-dev, installed by `make deps`)"
    }

    static func run(_ requests: [String]) throws -> [String] {
        guard let goPath, hasXMod else { throw FixtureError(whyMissing) }
        let root = EvidenceFixture.packageRoot
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("tlog-check-\(UUID().uuidString).txt")
        try Data((requests.joined(separator: "\n") + "\n").utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: goPath)
        process.arguments = ["run", root.appendingPathComponent("tools/tlog-check/main.go").path]
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        environment["GO111MODULE"] = "off"
        environment["GOPATH"] = sources
        environment["GOFLAGS"] = ""
        if environment["GOCACHE"] == nil {
            environment["GOCACHE"] = root.appendingPathComponent(".build/go-cache").path
        }
        process.environment = environment
        process.standardInput = try FileHandle(forReadingFrom: input)
        // Standard error goes to a file, so that a long compiler message cannot block the pipe.
        let errorFile = input.appendingPathExtension("stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: errorFile)) ?? Data()
        guard process.terminationStatus == 0 else {
            throw FixtureError(
                "go run tools/tlog-check failed (\(process.terminationStatus)): "
                    + String(decoding: errorData, as: UTF8.self))
        }
        let answers = String(decoding: outputData, as: UTF8.self).split(separator: "\n").map(String.init)
        guard answers.count == requests.count else {
            throw FixtureError("tlog-check answered \(answers.count) of \(requests.count) requests")
        }
        return answers
    }
}
