import Foundation
import Simulator
import Testing

/// Four `journal import` processes and one expected-version appender write to one journal at
/// once while readers (`export`, `audit`, `verify`, `query`) run; every event lands exactly once,
/// versions have no gaps, each import is one unbroken run of positions, the appender's conflicts
/// are exactly the ones that had to happen, and every reader saw a state between two commits.
@Suite("Concurrent writers and readers", .serialized)
struct ConcurrentWritersTests {
    /// One importer's file: streams of its own, their lines interleaved.
    struct ImportFile {
        var path = ""
        var lines: [String] = []
        /// Streams left open at version 2, for the appender to close.
        var openStreams: [String] = []
        var challenged = 0
        var yellow = 0
    }

    /// File `k` holds `2^k × m` challenged and `2^k × m` yellow-flow journeys, so any sum of
    /// them names the files it came from (a reader's counts identify its snapshot).
    static func makeFiles(
        runner: JournalRunner, open: Int, m: Int, legal: inout LegalEvents,
        random: inout SeededRandom
    ) throws -> [ImportFile] {
        var files: [ImportFile] = []
        var n = 1
        for k in 0..<4 {
            var file = ImportFile()
            var streams: [[String]] = []
            for _ in 0..<open {
                streams.append(legal.openFrictionless(n))
                file.openStreams.append(LegalEvents.threeDSStream(n))
                n += 1
            }
            file.challenged = m << k
            file.yellow = m << k
            for _ in 0..<file.challenged {
                streams.append(legal.challenged(n))
                n += 1
            }
            for _ in 0..<file.yellow {
                streams.append(legal.yellowOTP(n))
                n += 1
            }
            // Interleave: take the next line of a randomly chosen unfinished stream.
            var cursors = Array(repeating: 0, count: streams.count)
            var unfinished = Array(streams.indices)
            while !unfinished.isEmpty {
                let slot = random.int(below: unfinished.count)
                let index = unfinished[slot]
                file.lines.append(streams[index][cursors[index]])
                cursors[index] += 1
                if cursors[index] == streams[index].count { unfinished.remove(at: slot) }
            }
            file.path = try runner.ndjson("importer-\(k).ndjson", file.lines)
            files.append(file)
        }
        return files
    }

    struct Snapshot {
        var kind: String
        var status: Int32
        var stdout: String
        var stderr: String
        var argument = ""
    }

    @Test func fourImportersAndAnExpectedVersionAppenderKeepEveryEventExactlyOnce() throws {
        let runner = try JournalRunner()
        var random = SeededRandom(seed: Soak.seed &+ 3)
        var legal = LegalEvents()
        let files = try Self.makeFiles(
            runner: runner, open: Soak.pick(quick: 40, soak: 400),
            m: Soak.pick(quick: 2, soak: 12), legal: &legal, random: &random)
        let openStreams = random.shuffled(files.flatMap(\.openStreams))
        let streamsFile = try runner.write("open-streams.txt", openStreams.joined(separator: "\n") + "\n")
        let patience = ["JOURNAL_BUSY_TIMEOUT_MS": "300000"]
        // The journal exists before the race, so readers have something to open.
        #expect(try runner.run(["verify"], timeout: 60).ending == .exited(1))
        let seedLines = legal.events(atLeast: 1, firstStream: 900_000_000).lines
        #expect(
            try runner.run(["import", try runner.ndjson("seed.ndjson", seedLines)], timeout: 120).ending == .exited(0))

        let closer = try runner.startHarness(["close-streams", "--streams", streamsFile, "--deadline-seconds", "600"])
        var importers: [ChildProcess] = []
        for file in files {
            importers.append(try runner.start(["import", file.path], environment: patience))
        }

        // Readers, one after another, for as long as a writer runs.
        var snapshots: [Snapshot] = []
        let auditable = files.flatMap { $0.lines.prefix(40).map(Self.streamOf) }
        var turn = 0
        while importers.contains(where: \.isRunning) || closer.isRunning {
            if importers.contains(where: { !$0.isRunning && $0.process.terminationStatus != 0 }) {
                closer.kill()
                Issue.record("an importer failed: \(importers.map(\.stderr))")
                return
            }
            let kind = ["export", "audit", "verify", "query"][turn % 4]
            turn += 1
            var arguments: [String]
            var argument = ""
            switch kind {
            case "export": arguments = ["export"]
            case "audit":
                argument = random.pick(auditable)
                arguments = ["audit", argument, "--format", "json"]
            case "verify": arguments = ["verify", "--format", "json"]
            default: arguments = ["query", "otp", "--format", "json"]
            }
            let result = try runner.run(arguments, timeout: 600, environment: patience)
            guard case let .exited(status) = result.ending else {
                Issue.record("\(kind) ended with \(result.ending): \(result.stderr)")
                continue
            }
            snapshots.append(
                Snapshot(
                    kind: kind, status: status, stdout: result.stdout, stderr: result.stderr,
                    argument: argument))
        }

        // Writers: every import whole, the appender's conflicts reported with exit 5.
        for (importer, file) in zip(importers, files) {
            #expect(importer.wait(timeout: 60) == .exited(0), "\(importer.stderr)")
            #expect(
                importer.stdout
                    == "imported \(file.lines.count) lines: \(file.lines.count) appended, 0 duplicates, 0 rejected\n")
        }
        #expect(closer.wait(timeout: 60) == .exited(5), "\(closer.stderr)")
        let attempts = closer.stdoutLines.map { $0.split(separator: " ").map(String.init) }
        let closed = Dictionary(
            attempts.filter { $0[0] == "closed" }.map { ($0[1], Int($0[2])!) }, uniquingKeysWith: { a, _ in a })
        #expect(closed.count == openStreams.count && attempts.filter { $0[0] == "closed" }.count == openStreams.count)
        let stale = attempts.filter { $0[0] == "conflict" && $0[2] == "stale" }
        #expect(stale.count == openStreams.count && stale.allSatisfy { $0[3] == "3" }, "a stale append meets version 3")
        let early = attempts.filter { $0[0] == "conflict" && $0[2] == "early" }
        // An import is one transaction: an appender never sees a stream half imported.
        #expect(early.allSatisfy { $0[3] == "none" }, "\(early.filter { $0[3] != "none" })")
        let retried = attempts.filter { $0[0] == "retried" }
        #expect(
            retried.count == openStreams.count && retried.allSatisfy { closed[$0[1]] == Int($0[2]) && $0[3] == "0" })
        #expect(
            closer.stderrLines.count == stale.count + early.count
                && closer.stderrLines.allSatisfy { $0.hasPrefix("error: concurrency conflict: stream ") })

        // The final journal: each event once, versions without gaps, imports unbroken.
        let finalExport = try runner.run(["export"], timeout: 600)
        let finalLines = finalExport.stdout.split(separator: "\n").map(String.init)
        let records = finalLines.map(Self.record)
        let expectedCount = seedLines.count + files.reduce(0) { $0 + $1.lines.count } + openStreams.count
        #expect(records.count == expectedCount)
        #expect(Set(records.map(\.id)).count == records.count, "an event id twice")
        #expect(records.map(\.position) == Array(1...records.count))
        var versions: [String: Int] = [:]
        for record in records {
            #expect(record.version == versions[record.stream, default: -1] + 1, "version gap in \(record.stream)")
            versions[record.stream] = record.version
        }
        let positionOfID = Dictionary(records.map { ($0.id, $0.position) }, uniquingKeysWith: { a, _ in a })
        var importRanges: [ClosedRange<Int>] = []
        for file in files {
            let positions = file.lines.map { positionOfID[idOf($0)] ?? -1 }
            #expect(!positions.contains(-1), "an imported event is missing")
            let range = positions[0]...(positions[0] + positions.count - 1)
            #expect(positions == Array(range), "an import's events are not one unbroken run in file order")
            importRanges.append(range)
        }
        for stream in openStreams {
            #expect(versions[stream] == 3, "\(stream) ends at version \(versions[stream] ?? -1)")
            #expect(
                records.contains {
                    $0.stream == stream && $0.version == 3 && $0.position == closed[stream]
                        && $0.type == "TransactionClosed"
                })
        }
        let verification = try runner.verification()
        #expect(verification.status == 0 && verification.events == expectedCount)
        #expect(try runner.run(["replay", "--all"], timeout: 600).ending == .exited(0))

        // Readers: each saw the journal between two commits.
        let finalAudits = try Dictionary(
            Set(snapshots.filter { $0.kind == "audit" }.map(\.argument)).map { stream in
                (stream, try Self.auditEvents(runner.run(["audit", stream, "--format", "json"], timeout: 600).stdout))
            }, uniquingKeysWith: { a, _ in a })
        var readers: [String: Int] = [:]
        var busyQueries = 0
        for snapshot in snapshots {
            switch snapshot.kind {
            case "export":
                #expect(snapshot.status == 0, "\(snapshot.stderr)")
                let lines = snapshot.stdout.split(separator: "\n").map(String.init)
                #expect(lines == Array(finalLines.prefix(lines.count)), "an export that is not a prefix of the log")
                let end = lines.count
                #expect(
                    importRanges.allSatisfy { $0.upperBound <= end || $0.lowerBound > end },
                    "an export ending inside an import (\(end) events)")
            case "audit":
                if snapshot.status == 1 && snapshot.stderr.hasPrefix("error: no stream ") { break }
                #expect(snapshot.status == 0, "\(snapshot.stderr)")
                let events = Self.auditEvents(snapshot.stdout)
                let final = finalAudits[snapshot.argument] ?? []
                #expect(!events.isEmpty && events == Array(final.prefix(events.count)), "an audit that is not a prefix")
            case "verify":
                #expect(snapshot.status == 0, "\(snapshot.stderr)")
            default:
                if snapshot.status == 5 && snapshot.stderr.contains("locked") {
                    busyQueries += 1
                    break
                }
                #expect(snapshot.status == 0, "\(snapshot.stderr)")
                let counts = Self.otpCounts(snapshot.stdout)
                let m = files[0].challenged
                // The seed journey is a challenged one only when its number says so.
                let seedChallenged = 900_000_000 % 4 == 0 ? 1 : 0
                let seedYellow = 900_000_000 % 4 == 2 ? 1 : 0
                let challengedMask = (counts.transactions - seedChallenged) / m
                #expect((counts.transactions - seedChallenged) % m == 0 && (0..<16).contains(challengedMask))
                #expect(
                    counts.journeys - seedYellow == challengedMask * m,
                    "3DS and card counts from different snapshots: \(snapshot.stdout)")
            }
            readers[snapshot.kind, default: 0] += 1
        }
        #expect(readers["export", default: 0] >= 1 && readers["verify", default: 0] >= 1)
        Soak.report(
            "concurrent-writers",
            [
                "events": expectedCount, "earlyConflicts": early.count, "staleConflicts": stale.count,
                "exports": readers["export", default: 0], "audits": readers["audit", default: 0],
                "verifies": readers["verify", default: 0], "queries": readers["query", default: 0],
                "busyQueries": busyQueries
            ])
    }

    struct Record {
        var id: String
        var stream: String
        var type: String
        var position: Int
        var version: Int
    }

    static func record(_ line: String) -> Record {
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        return Record(
            id: object["id"] as? String ?? "", stream: object["stream"] as? String ?? "",
            type: object["type"] as? String ?? "", position: object["position"] as? Int ?? -1,
            version: object["version"] as? Int ?? -1)
    }

    static func streamOf(_ line: String) -> String { record(line).stream }

    /// The `events` of `journal audit --format json`, each re-serialized with sorted keys.
    static func auditEvents(_ text: String) -> [String] {
        let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        let events = object?["events"] as? [Any] ?? []
        return events.map { event in
            let data = (try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }

    static func otpCounts(_ text: String) -> (transactions: Int, journeys: Int) {
        let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        let threeDS = object?["threeDS"] as? [String: Any]
        let tokenization = object?["tokenization"] as? [String: Any]
        return (threeDS?["transactions"] as? Int ?? -1, tokenization?["journeys"] as? Int ?? -1)
    }
}
