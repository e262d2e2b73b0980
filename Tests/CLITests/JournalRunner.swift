import Foundation
import Testing

/// Runs the built `journal` executable as a user would, in a temporary folder of its own.
final class JournalRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutLines: [String] {
            stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        var stderrLines: [String] {
            stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    let folder: URL
    /// `--db` for every command unless the test passes its own.
    var database: String { folder.appendingPathComponent("journal.db").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("journal-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        let target = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }

    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let target = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// The `journal` executable next to the test bundle (`.build/<triple>/debug/journal`).
    static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "journal"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("journal"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/journal")
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    /// Runs `journal ARGS` with `--db` set to this runner's database unless `db` is false, and
    /// the working directory set to the runner's folder.
    @discardableResult
    func run(
        _ arguments: [String], db: Bool = true, stdin: String? = nil,
        environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments + (db ? ["--db", database] : [])
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "JOURNAL_DB")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            let handle = input.fileHandleForWriting
            let data = Data(stdin.utf8)
            DispatchQueue.global().async {
                handle.write(data)
                try? handle.close()
            }
        }
        return Self.outcome(of: process, out: out, err: err)
    }

    /// Runs `command` (an absolute path, then its arguments) in `directory` without `JOURNAL_DB`
    /// and with nothing on stdin: for tests that run `journal` under another user or namespace.
    static func runCommand(_ command: [String], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "JOURNAL_DB")
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return outcome(of: process, out: out, err: err)
    }

    /// Both pipes read to their ends at the same time, so a full pipe never blocks the child,
    /// then its exit status.
    private static func outcome(of process: Process, out: Pipe, err: Pipe) -> Result {
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
