import Foundation
import Simulator
import Testing

/// SIGKILL at random moments: after every kill `journal verify` passes and the journal holds
/// exactly the events of the transactions that committed, nothing of the others.
@Suite("Crash safety: SIGKILL at random moments", .serialized)
struct CrashSafetyTests {
    /// `journal import` is one transaction: a killed import leaves all of its file or none of
    /// it, and the next import of the same file works (it appends, or finds only duplicates).
    @Test func aKilledImportLeavesAllOrNoneOfItsFileAndTheNextImportWorks() throws {
        var runner = try JournalRunner()
        var random = SeededRandom(seed: Soak.seed &+ 1)
        let targetKills = Soak.pick(quick: 3, soak: 60)
        var legal = LegalEvents()
        var nextStream = 1
        var committed = 0 // events in the journal
        // How long an import takes here, per event: measured once on a scratch journal, then
        // replaced by every import that finished before its kill (the machine's load changes).
        var secondsPerEvent: Double = try {
            let scratch = try JournalRunner()
            var calibration = LegalEvents()
            let lines = calibration.events(atLeast: 1_500, firstStream: 1).lines
            let child = try scratch.start(["import", try scratch.ndjson("calibrate.ndjson", lines)])
            #expect(child.wait(timeout: 600) == .exited(0))
            return child.duration / Double(lines.count)
        }()
        var kills = 0
        var finished = 0
        var killedAfterCommit = 0
        var eventsChecked = 0
        var cycles = 0
        var file: (path: String, ids: [String])?

        while kills < targetKills && cycles < targetKills * 8 {
            cycles += 1
            if Soak.isOn && cycles % 12 == 0 {
                // Keep the soak's journal from growing without bound: start a new one.
                runner = try JournalRunner()
                committed = 0
                file = nil
            }
            if file == nil {
                let size = Soak.isOn ? random.int(in: 2_000...20_000) : 1_500
                let made = legal.events(atLeast: size, firstStream: nextStream)
                nextStream = made.nextStream
                file = (try runner.ndjson("import-\(cycles).ndjson", made.lines), made.lines.map(idOf))
            }
            let (path, ids) = file!
            let estimate = max(0.05, secondsPerEvent * Double(ids.count))
            // A third of the kills aim at the end, where the commit writes and syncs the WAL.
            let delay = random.chance(33) ? estimate * (0.8 + 0.3 * random.unit()) : estimate * 1.05 * random.unit()
            let child = try runner.start(["import", path], environment: ["JOURNAL_BUSY_TIMEOUT_MS": "60000"])
            usleep(UInt32(delay * 1_000_000))
            child.kill()
            let ending = child.wait(timeout: 600)
            switch ending {
            case .exited(0):
                finished += 1
                secondsPerEvent = child.duration / Double(ids.count)
            case .killed(SIGKILL):
                kills += 1
            default:
                Issue.record("import ended with \(ending): \(child.stderr)")
                return
            }

            let verification = try runner.verification(emptyIfMissing: committed == 0)
            try #require(verification.status == 0, "verify after \(ending): \(verification.stderr)")
            let events = try #require(verification.events)
            eventsChecked += events
            if events == committed {
                #expect(ending != .exited(0), "an import that exited 0 must have written its file")
            } else {
                try #require(
                    events == committed + ids.count,
                    """
                    after \(ending) the journal holds \(events) events: neither \
                    \(committed) nor \(committed + ids.count)
                    """
                )
                #expect(try runner.exportedIDs(from: committed + 1) == ids, "the file's events, in file order")
                eventsChecked += ids.count
                if ending != .exited(0) { killedAfterCommit += 1 }
                committed = events
                file = nil
            }
        }
        #expect(kills >= targetKills, "only \(kills) kills landed in \(cycles) cycles")

        // The next run works: a last import of the file in hand (or a fresh one) completes.
        if file == nil {
            let made = legal.events(atLeast: 500, firstStream: nextStream)
            file = (try runner.ndjson("last.ndjson", made.lines), made.lines.map(idOf))
        }
        let last = try runner.run(["import", file!.path], timeout: 600)
        #expect(last.ending == .exited(0), "\(last.stderr)")
        let final = try runner.verification()
        #expect(final.status == 0 && final.events == committed + file!.ids.count)
        #expect(try runner.exportedIDs(from: committed + 1) == file!.ids)
        Soak.report(
            "import-kills",
            [
                "kills": kills, "killedAfterCommit": killedAfterCommit, "finishedBeforeKill": finished,
                "eventsChecked": eventsChecked + file!.ids.count
            ])
    }

    /// Bulk appends through the library (the harness program, 1–4 threads sharing group commits):
    /// every acknowledged batch survives whole, at most the one batch in flight per thread may
    /// also have committed (whole), and nothing else is there.
    @Test func aKilledLibraryAppenderKeepsExactlyItsCommittedBatches() throws {
        let runner = try JournalRunner()
        var random = SeededRandom(seed: Soak.seed &+ 2)
        let targetKills = Soak.pick(quick: 3, soak: 60)
        let batchesPerRun = 100_000
        var firstBatch = 0
        var head = 0
        var kills = 0
        var inFlightCommitted = 0
        var batchesChecked = 0
        var eventsChecked = 0
        var cycles = 0

        while kills < targetKills && cycles < targetKills * 3 {
            cycles += 1
            let threads = random.int(in: 1...4)
            let batchSize = random.int(in: 2...40)
            let child = try runner.startHarness([
                "append-batches", "--first", String(firstBatch),
                "--count", String(batchesPerRun),
                "--batch-size", String(batchSize), "--threads", String(threads)
            ])
            if random.chance(12) {
                // Early: while the journal opens (or is created, or recovers the last crash).
                usleep(UInt32(random.int(below: 40_000)))
            } else {
                let started = child.waitUntil(timeout: 120) { child.stdout.contains("committed") }
                try #require(started, "the harness committed nothing: \(child.stderr)")
                usleep(UInt32(random.int(below: 400_000)))
            }
            child.kill()
            let ending = child.wait(timeout: 120)
            try #require(ending == .killed(SIGKILL), "harness ended with \(ending): \(child.stderr)")
            kills += 1

            let acknowledged = Set(
                child.stdoutLines.compactMap { line -> Int? in
                    guard line.hasPrefix("committed ") else { return nil }
                    return Int(line.dropFirst("committed ".count))
                })
            let verification = try runner.verification(emptyIfMissing: head == 0)
            try #require(verification.status == 0, "verify after a kill: \(verification.stderr)")
            let events = try #require(verification.events)
            eventsChecked += events

            // Group the new events by batch.
            var found: [Int: Set<Int>] = [:]
            for object in try runner.exportedObjects(["--from-position", String(head + 1)]) {
                guard let data = object["data"] as? [String: Any], let batch = data["batch"] as? Int,
                    let index = data["index"] as? Int
                else {
                    Issue.record("an event that no batch wrote: \(object)")
                    continue
                }
                #expect(found[batch, default: []].insert(index).inserted, "batch \(batch) event \(index) twice")
            }
            #expect(head + found.values.reduce(0) { $0 + $1.count } == events)
            for (batch, indexes) in found {
                #expect(indexes == Set(0..<batchSize), "batch \(batch) is partial: \(indexes.count) of \(batchSize)")
            }
            for thread in 0..<threads {
                let sequence = Array(stride(from: firstBatch + thread, to: firstBatch + batchesPerRun, by: threads))
                let acked = sequence.prefix { acknowledged.contains($0) }.count
                #expect(
                    sequence.dropFirst(acked).allSatisfy { !acknowledged.contains($0) }, "acknowledged out of order")
                let present = sequence.prefix { found[$0] != nil }.count
                #expect(
                    present == acked || present == acked + 1,
                    "thread \(thread): \(acked) batches acknowledged, \(present) in the journal")
                #expect(sequence.dropFirst(present).allSatisfy { found[$0] == nil }, "a batch after a missing one")
                if present == acked + 1 { inFlightCommitted += 1 }
            }
            batchesChecked += found.count
            head = events
            firstBatch += batchesPerRun
        }
        #expect(kills >= targetKills)
        // The next run works and finishes.
        let last = try runner.startHarness([
            "append-batches", "--first", String(firstBatch), "--count", "20",
            "--batch-size", "5", "--threads", "2"
        ])
        #expect(last.wait(timeout: 300) == .exited(0), "\(last.stderr)")
        let final = try runner.verification()
        #expect(final.status == 0 && final.events == head + 100)
        Soak.report(
            "append-kills",
            [
                "kills": kills, "inFlightBatchesCommitted": inFlightCommitted,
                "batchesChecked": batchesChecked, "eventsChecked": eventsChecked
            ])
    }
}

extension SeededRandom {
    /// A uniform double in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
