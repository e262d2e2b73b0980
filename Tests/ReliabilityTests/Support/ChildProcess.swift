import Foundation
import Glibc

/// A program started in the background with its output in files (so a full pipe never blocks it
/// and a SIGKILL loses nothing it already wrote), which a test can poll, kill and wait for.
final class ChildProcess {
    let process = Process()
    let stdoutPath: String
    let stderrPath: String
    let started = Date()
    private let ending = EndTime()

    /// When the process ended, set by Foundation's termination handler.
    private final class EndTime: @unchecked Sendable {
        private let lock = NSLock()
        private var date: Date?
        func set() { lock.withLock { date = Date() } }
        var value: Date? { lock.withLock { date } }
    }

    /// How the process ended.
    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case killed(Int32)
        case timedOut

        var description: String {
            switch self {
            case let .exited(status): return "exit \(status)"
            case let .killed(signal): return "signal \(signal)"
            case .timedOut: return "timed out"
            }
        }
    }

    init(
        _ executable: URL, _ arguments: [String], folder: URL, environment: [String: String] = [:],
        stdin: String? = nil
    ) throws {
        let tag = UUID().uuidString.prefix(8)
        stdoutPath = folder.appendingPathComponent("child-\(tag).out").path
        stderrPath = folder.appendingPathComponent("child-\(tag).err").path
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "JOURNAL_DB")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        if let stdin {
            let path = folder.appendingPathComponent("child-\(tag).in").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(stdin.utf8))
            process.standardInput = FileHandle(forReadingAtPath: path)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let ending = self.ending
        process.terminationHandler = { _ in ending.set() }
        try process.run()
    }

    /// Seconds from the start to the end of the process (to now while it runs).
    var duration: Double { (ending.value ?? Date()).timeIntervalSince(started) }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var elapsed: Double { Date().timeIntervalSince(started) }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// SIGKILL, as a power cut or the OOM killer would end it (no handler runs).
    func kill() { _ = Glibc.kill(pid, SIGKILL) }

    /// Waits for the end, killing the process when `timeout` seconds pass.
    @discardableResult
    func wait(timeout: Double) -> Ending {
        while process.isRunning && elapsed < timeout { usleep(5_000) }
        if process.isRunning {
            kill()
            process.waitUntilExit()
            return .timedOut
        }
        process.waitUntilExit()
        switch process.terminationReason {
        case .exit: return .exited(process.terminationStatus)
        case .uncaughtSignal: return .killed(process.terminationStatus)
        @unknown default: return .exited(process.terminationStatus)
        }
    }

    /// Polls until `condition` holds or the process ends or `timeout` passes; true when it held.
    func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            if !process.isRunning { return condition() }
            usleep(2_000)
        }
        return condition()
    }
}

extension JournalRunner {
    /// The harness program built next to `journal`.
    static var harness: URL { executable.deletingLastPathComponent().appendingPathComponent("reliability-harness") }

    /// Starts `journal ARGS --db <this runner's database>` in the background.
    func start(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> ChildProcess
    {
        try ChildProcess(
            Self.executable, arguments + ["--db", database], folder: folder, environment: environment,
            stdin: stdin)
    }

    /// Starts the harness program with `--db <this runner's database>`.
    func startHarness(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(Self.harness, arguments + ["--db", database], folder: folder)
    }

    /// Runs `journal ARGS --db …` (no `--db` when `db` is false) to its end, or kills it after
    /// `timeout` seconds (a hang).
    func run(_ arguments: [String], timeout: Double, db: Bool = true, environment: [String: String] = [:])
        throws -> (ending: ChildProcess.Ending, stdout: String, stderr: String)
    {
        let child =
            db
            ? try start(arguments, environment: environment)
            : try ChildProcess(Self.executable, arguments, folder: folder, environment: environment)
        let ending = child.wait(timeout: timeout)
        defer {
            try? FileManager.default.removeItem(atPath: child.stdoutPath)
            try? FileManager.default.removeItem(atPath: child.stderrPath)
        }
        return (ending, child.stdout, child.stderr)
    }
}
