import Foundation
import Testing

/// The report and the served dashboard in a real browser: `tests/browser/test_report.py` drives
/// headless Chromium (Debian's `chromium`, `chromium-driver`) with Python's `selenium` against
/// the built `journal`. Skipped where those are missing, except in CI (`CI=true`), where that
/// fails: `make test` installs them (`make test-deps`).
@Suite(
    "Report and dashboard in headless Chromium",
    .enabled(
        if: BrowserEnvironment.available || BrowserEnvironment.required,
        """
        chromium, chromedriver or Python's selenium is not installed (make test-deps, or apt-get install chromium \
        chromium-driver python3-selenium)
        """
    ))
struct BrowserTests {
    @Test("the report and the served dashboard draw every chart, show the JSON's numbers, and log no error")
    func browserChecksPass() throws {
        guard BrowserEnvironment.available else {
            Issue.record(
                "CI=true and the browser test cannot run: missing \(BrowserEnvironment.missing.joined(separator: ", "))"
            )
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", BrowserEnvironment.script.path, JournalRunner.executable.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
