import Foundation

/// What the browser tests need (`chromium`, `chromedriver`, Python's `selenium`), and whether
/// CI requires them (`CI=true`).
enum BrowserEnvironment {
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tests/browser/test_report.py")

    static func found(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin"]).contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    /// What is missing, empty when nothing is.
    static let missing: [String] = {
        var missing = ["chromium", "chromedriver", "python3"].filter { !found($0) }
        if !missing.contains("python3") {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            probe.arguments = ["python3", "-c", "import selenium"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            if (try? probe.run()) == nil {
                missing.append("selenium")
            } else {
                probe.waitUntilExit()
                if probe.terminationStatus != 0 { missing.append("Python's selenium") }
            }
        }
        return missing
    }()

    static var available: Bool { missing.isEmpty }
}
