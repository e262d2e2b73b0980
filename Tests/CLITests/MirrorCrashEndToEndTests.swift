import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Spec §10: a crash of `journal publish` at any moment leaves the mirror consistent for
/// its readers.
@Suite("journal publish killed at random moments (end to end)")
struct MirrorCrashEndToEndTests {
    /// Runs `journal ARGS` to its end; returns its status and standard error.
    static func journal(_ arguments: [String]) -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = JournalRunner.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return (-1, "\(error)")
        }
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("while publishes are killed with SIGKILL at random moments, a reader always verifies the mirror")
    func killedPublishesLeaveAConsistentMirror() throws {
        let signed = try EvidenceEndToEndTests.Signed(transactions: 60)
        let runner = signed.runner
        let mirror = runner.path("mirror")
        #expect(try runner.run(["publish", "--out", mirror, "--entries"]).status == 0)

        let stop = Atomic<Bool>(false)
        let verifications = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let verify = ["verify", "--mirror", mirror, "--key", signed.verifierKey]
        let reader = Thread {
            while !stop.load(ordering: .acquiring) {
                let result = Self.journal(verify)
                verifications.add(1, ordering: .relaxed)
                if result.status != 0 { failures.withLock { $0.append(result.stderr) } }
            }
        }
        reader.start()
        defer { stop.store(true, ordering: .releasing) }

        var random = SystemRandomNumberGenerator()
        var killed = 0
        var completed = 0
        // How long a whole run takes here (every other round runs to its end): the kills of the
        // rounds between land anywhere from the start of a run to a little past its end.
        var runMicroseconds: UInt32 = 0
        for round in 0..<16 {
            let more = try runner.run([
                "simulate", "--seed", "\(100 + round)", "--transactions", "300", "--digitizations", "50",
                "--into-existing"
            ])
            #expect(more.status == 0, "\(more.stderr)")
            #expect(try runner.run(["checkpoint", "--key", signed.keyFile]).status == 0)
            let publish = Process()
            publish.executableURL = JournalRunner.executable
            publish.arguments = ["publish", "--out", mirror, "--entries", "--db", runner.database]
            publish.standardOutput = FileHandle.nullDevice
            publish.standardError = FileHandle.nullDevice
            let before = try? String(contentsOfFile: mirror + "/checkpoint", encoding: .utf8)
            let start = DispatchTime.now().uptimeNanoseconds
            try publish.run()
            if round.isMultiple(of: 2) {
                publish.waitUntilExit()
                runMicroseconds = UInt32((DispatchTime.now().uptimeNanoseconds - start) / 1_000)
            } else {
                usleep(UInt32.random(in: 0...(runMicroseconds + runMicroseconds / 5), using: &random))
                if publish.isRunning {
                    kill(publish.processIdentifier, SIGKILL)
                    killed += 1
                }
                publish.waitUntilExit()
            }
            if (try? String(contentsOfFile: mirror + "/checkpoint", encoding: .utf8)) != before { completed += 1 }
        }
        // Let the reader see the mirror as the last killed run left it, then finish the publish.
        let before = verifications.load(ordering: .relaxed)
        while verifications.load(ordering: .relaxed) < before + 2 { usleep(20_000) }
        let finish = try runner.run(["publish", "--out", mirror, "--entries", "--format", "json"])
        #expect(finish.status == 0, "\(finish.stderr)")
        stop.store(true, ordering: .releasing)
        while reader.isExecuting { usleep(10_000) }

        #expect(failures.withLock { $0 } == [], "a reader found the mirror inconsistent")
        #expect(verifications.load(ordering: .relaxed) > 2)
        let final = try runner.run(verify, db: false)
        #expect(final.status == 0, "\(final.stderr)")
        let size = try runner.exportedObjects().count
        #expect(final.stdout.contains("holds the tree of \(size) events"), "\(final.stdout)")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: mirror)).contains { $0.hasPrefix(".publish-") })
        #expect(killed > 0)
        print(
            "publish killed in \(killed) of 8 rounds, checkpoint replaced in \(completed) of 16 (the last whole run "
                + "took \(runMicroseconds / 1_000) ms); \(verifications.load(ordering: .relaxed)) verifications")
    }
}
