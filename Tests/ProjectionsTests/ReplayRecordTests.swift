import Domain
import EventStore
import Foundation
import JournalCore
import Projections
import Simulator
import Testing

/// A replay against a record (spec §12) names exactly the streams a rule change affects, at
/// the version it first shows, with the fields it changes: the rules are changed for the test by
/// folding through a variant of the domain's (a second fold, ``ReplayFold``).
@Suite("Replay against a record: rule changes")
struct ReplayRecordTests {
    /// The domain's rules, except that a `resend` request also counts as an OTP submission.
    struct ResendCountsAsSubmission: ReplayFold {
        var domain: DomainReplayFold

        static func start(stream: String) throws(ReplayRuleError) -> Self {
            Self(domain: try DomainReplayFold.start(stream: stream))
        }

        mutating func replay(type: String, data: UnsafeRawBufferPointer, occurredAt: Timestamp, parser: JSONParser)
            throws(ReplayRuleError)
        {
            try domain.replay(type: type, data: data, occurredAt: occurredAt, parser: parser)
        }

        var replaySummary: JSONObject {
            var summary = domain.replaySummary
            if let submissions = summary["otpSubmissions"]?.numberValue?.int64,
                let resends = summary["resends"]?.numberValue?.int64
            {
                summary["otpSubmissions"] = .number(JSONNumber(submissions + resends))
            }
            return summary
        }
    }

    /// The domain's rules, except that an html screen (`acsUiType` 05) is refused.
    struct HTMLScreensRefused: ReplayFold {
        static let reason = "ChallengeResponseReceived.acsUiType 05 (html) is not allowed"
        var domain: DomainReplayFold

        static func start(stream: String) throws(ReplayRuleError) -> Self {
            Self(domain: try DomainReplayFold.start(stream: stream))
        }

        mutating func replay(type: String, data: UnsafeRawBufferPointer, occurredAt: Timestamp, parser: JSONParser)
            throws(ReplayRuleError)
        {
            let text = String(decoding: data, as: UTF8.self)
            if type == "ChallengeResponseReceived", text.contains(#""acsUiType":"05""#) {
                throw ReplayRuleError(reason: Self.reason)
            }
            try domain.replay(type: type, data: data, occurredAt: occurredAt, parser: parser)
        }

        var replaySummary: JSONObject { domain.replaySummary }
    }

    /// The domain's rules, claiming every state ended: the run lets go of each stream's queues
    /// whenever both sides have caught up; nothing it writes or finds may change.
    struct AlwaysEnded: ReplayFold {
        var domain: DomainReplayFold

        static func start(stream: String) throws(ReplayRuleError) -> Self {
            Self(domain: try DomainReplayFold.start(stream: stream))
        }

        mutating func replay(type: String, data: UnsafeRawBufferPointer, occurredAt: Timestamp, parser: JSONParser)
            throws(ReplayRuleError)
        {
            try domain.replay(type: type, data: data, occurredAt: occurredAt, parser: parser)
        }

        var replaySummary: JSONObject { domain.replaySummary }
        var replayEnded: Bool { true }
    }

    /// What the variants must find, computed from the events themselves.
    struct Expected {
        /// Per stream with a resend: the version of its first resend, the submissions before it.
        var resends: [String: (version: Int64, submissions: Int)] = [:]
        /// Per stream with an html screen: the version of the first.
        var html: [String: Int64] = [:]
        var versions: [String: Int64] = [:]
        var events = 0

        init(_ store: any EventStore) throws {
            var submissions: [String: Int] = [:]
            var position: Int64 = 1
            while true {
                let page = try store.readAll(from: position, limit: 4096)
                guard let last = page.last else { break }
                for event in page {
                    let stream = event.stream.rawValue
                    events += 1
                    versions[stream] = event.version + 1
                    let data = String(decoding: event.data, as: UTF8.self)
                    if event.type == "ChallengeRequestSent" {
                        if data.contains(#""action":"resend""#), resends[stream] == nil {
                            resends[stream] = (event.version, submissions[stream, default: 0])
                        }
                        if data.contains(#""action":"submitText""#) { submissions[stream, default: 0] += 1 }
                    }
                    if event.type == "ChallengeResponseReceived", data.contains(#""acsUiType":"05""#),
                        html[stream] == nil
                    {
                        html[stream] = event.version
                    }
                }
                position = last.position + 1
            }
        }
    }

    static func record<Fold: ReplayFold>(
        _ store: any EventStore, as _: Fold.Type, rules: String, to path: String, lanes: Int = 2,
        page: Int = ReplayRun<Fold>.defaultPage, scanPage: Int = 1000
    ) throws {
        let run = try ReplayRun<Fold>(.record(path: path), rules: rules, lanes: lanes, page: page)
        var scan = ReplayLogScan(store: try #require(store as? any EventScanning), page: scanPage)
        try scan.feed(run)
        try run.finishRecord()
    }

    static func compare<Fold: ReplayFold>(
        _ store: any EventStore, as _: Fold.Type, rules: String, with path: String, lanes: Int = 2,
        page: Int = ReplayRun<Fold>.defaultPage, scanPage: Int = 1000
    ) throws -> ReplayComparison {
        let run = try ReplayRun<Fold>(.compare(path: path), rules: rules, lanes: lanes, page: page)
        var scan = ReplayLogScan(store: try #require(store as? any EventScanning), page: scanPage)
        try scan.feed(run)
        return try run.finishComparison()
    }

    static func simulated(_ backend: DatabaseBackend, transactions: Int, digitizations: Int) throws
        -> (store: any EventStore, db: TemporaryDatabase)
    {
        let db = try TemporaryDatabase(backend)
        let store: any EventStore =
            PostgresURL.isPostgres(db.location)
            ? try PostgresEventStore(url: db.location)
            : try SQLiteEventStore(path: db.path, configuration: .init(synchronous: .off))
        let simulation = try Simulation(seed: 36, transactions: transactions, digitizations: digitizations)
        _ = try SimulationAppender().append(simulation, to: store)
        return (store, db)
    }

    /// ≥ 100k events on SQLite; fewer on PostgreSQL, whose load is slower (same code path).
    static let sizes: [(DatabaseBackend, Int, Int)] =
        [(.sqlite, 12_000, 6_000)] + (PostgresProjectionsServer.skipped ? [] : [(.postgres, 1_200, 600)])

    @Test(
        "a rule change names exactly the streams it affects, at the right version, with the right fields",
        arguments: sizes)
    func ruleChangesNameTheAffectedStreams(size: (DatabaseBackend, Int, Int)) throws {
        let (store, db) = try Self.simulated(size.0, transactions: size.1, digitizations: size.2)
        defer { db.remove() }
        let expected = try Expected(store)
        if size.0.name == "SQLite" { #expect(expected.events >= 100_000) }
        #expect(!expected.resends.isEmpty && !expected.html.isEmpty, "the workload exercises both rules")
        let directory = FileManager.default.temporaryDirectory.path + "/replay-record-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let real = directory + "/real.rec"
        try Self.record(store, as: DomainReplayFold.self, rules: "real", to: real)
        let attributes = try FileManager.default.attributesOfItem(atPath: real)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        // Format 2: at most 16 bytes an event, the streams' names and final states included.
        let size = try #require(attributes[.size] as? Int)
        #expect(size <= 16 * expected.events, "\(size) bytes for \(expected.events) events")

        // The same rules: nothing differs.
        let same = try Self.compare(store, as: DomainReplayFold.self, rules: "real", with: real)
        #expect(same.isSame && same.streams == expected.versions.count)

        // A state rule changed: the streams with a resend, at their first resend, one field.
        let resend = try Self.compare(store, as: ResendCountsAsSubmission.self, rules: "resend", with: real)
        #expect(resend.summaryLine.hasPrefix("compared \(expected.versions.count) streams: "))
        #expect(resend.rulesThen == "real" && resend.rulesNow == "resend")
        #expect(resend.onlyNow.isEmpty && resend.onlyThen.isEmpty)
        #expect(resend.differences.map(\.stream) == expected.resends.keys.sorted())
        for difference in resend.differences {
            let want = try #require(expected.resends[difference.stream])
            #expect(difference.version == want.version, "\(difference.stream)")
            #expect(difference.then == .folds && difference.now == .folds)
            #expect(difference.versionsThen == expected.versions[difference.stream])
            #expect(difference.versionsNow == expected.versions[difference.stream])
            #expect(
                difference.fields == [
                    ReplayComparison.Field(
                        path: "otpSubmissions", before: .number(JSONNumber(want.submissions)),
                        after: .number(JSONNumber(want.submissions + 1)))
                ], "\(difference.stream)")
        }

        // A rule now refuses what it allowed: those streams fold then and fail now.
        let html = try Self.compare(store, as: HTMLScreensRefused.self, rules: "html", with: real)
        #expect(html.differences.map(\.stream) == expected.html.keys.sorted())
        for difference in html.differences {
            #expect(difference.version == expected.html[difference.stream], "\(difference.stream)")
            #expect(difference.then == .folds && difference.now == .fails)
            #expect(difference.thenReason == nil && difference.nowReason == HTMLScreensRefused.reason)
            #expect(difference.fields.isEmpty)
        }

        // And the reverse: recorded under the stricter rule, replayed under the journal's.
        let strict = directory + "/strict.rec"
        try Self.record(store, as: HTMLScreensRefused.self, rules: "html", to: strict)
        let reverse = try Self.compare(store, as: DomainReplayFold.self, rules: "real", with: strict)
        #expect(reverse.differences.map(\.stream) == expected.html.keys.sorted())
        #expect(reverse.differences.allSatisfy { $0.then == .fails && $0.now == .folds })
        #expect(reverse.differences.allSatisfy { $0.thenReason == HTMLScreensRefused.reason })
        #expect(reverse.differences.map(\.version) == expected.html.keys.sorted().map { expected.html[$0] ?? -1 })
    }

    @Test("the same record and log give byte-identical reports")
    func reportsAreDeterministic() throws {
        let (store, db) = try Self.simulated(.sqlite, transactions: 300, digitizations: 200)
        defer { db.remove() }
        let path = FileManager.default.temporaryDirectory.path + "/replay-det-\(UUID().uuidString).rec"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.record(store, as: DomainReplayFold.self, rules: "real", to: path)
        let first = try Self.compare(store, as: ResendCountsAsSubmission.self, rules: "resend", with: path)
        let second = try Self.compare(store, as: ResendCountsAsSubmission.self, rules: "resend", with: path)
        #expect(!first.differences.isEmpty)
        #expect(JSONWriter.string(.object(first.json())) == JSONWriter.string(.object(second.json())))
        #expect(first.textLines() == second.textLines())
    }

    @Test("a fold that calls every state ended gives the same records and reports")
    func everyStateEndedChangesNothing() throws {
        let (store, db) = try Self.simulated(.sqlite, transactions: 300, digitizations: 200)
        defer { db.remove() }
        let base = FileManager.default.temporaryDirectory.path + "/replay-ended-\(UUID().uuidString)"
        defer { for name in ["a", "b"] { try? FileManager.default.removeItem(atPath: base + name) } }
        try Self.record(store, as: DomainReplayFold.self, rules: "real", to: base + "a")
        try Self.record(store, as: AlwaysEnded.self, rules: "real", to: base + "b")
        #expect(FileManager.default.contents(atPath: base + "a") == FileManager.default.contents(atPath: base + "b"))
        #expect(try Self.compare(store, as: AlwaysEnded.self, rules: "real", with: base + "a").isSame)
        let kept = try Self.compare(store, as: ResendCountsAsSubmission.self, rules: "resend", with: base + "a")
        let remade = try Self.compare(store, as: AlwaysEnded.self, rules: "real", with: base + "a")
        #expect(!kept.differences.isEmpty && remade.differences.isEmpty)
    }

    /// Another order on the two sides: each stream's versions wait in its queue for the other
    /// side's, and a stream that differs has its state before made again from what the lanes
    /// hand over, as in the same order.
    @Test("versions that come in another order than the record's give the same report")
    func anotherOrderGivesTheSameReport() throws {
        let (store, db) = try Self.simulated(.sqlite, transactions: 300, digitizations: 200)
        defer { db.remove() }
        let path = FileManager.default.temporaryDirectory.path + "/replay-order-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.record(store, as: DomainReplayFold.self, rules: "real", to: path)
        let events = try store.readAll(from: 1, limit: 1_000_000)
        // Stream by stream, in reverse name order: every stream's versions come after the
        // record's, or long before them.
        let regrouped = events.enumerated().sorted { left, right in
            left.element.stream.description != right.element.stream.description
                ? left.element.stream.description > right.element.stream.description : left.offset < right.offset
        }.map(\.element)
        for fold in ["real", "resend"] {
            let inOrder = try Self.compareFed(events, fold: fold, with: path)
            let otherOrder = try Self.compareFed(regrouped, fold: fold, with: path)
            #expect(fold == "real" ? inOrder.isSame : !inOrder.differences.isEmpty)
            #expect(
                JSONWriter.string(.object(otherOrder.json())) == JSONWriter.string(.object(inOrder.json())), "\(fold)")
        }
    }

    /// Compares `events`, fed in the order given, with the record at `path`.
    static func compareFed(_ events: [RecordedEvent], fold: String, with path: String) throws -> ReplayComparison {
        func run<Fold: ReplayFold>(_: Fold.Type) throws -> ReplayComparison {
            let run = try ReplayRun<Fold>(.compare(path: path), rules: fold, page: 64)
            var keys: [String: Int64] = [:]
            for event in events {
                let name = event.stream.description
                let key = keys[name] ?? Int64(keys.count + 1)
                keys[name] = key
                try event.data.withUnsafeBytes { data in
                    try run.feed(
                        key: key, name: { name }, position: event.position, type: event.type, data: data,
                        occurredAt: event.occurredAt)
                }
            }
            return try run.finishComparison()
        }
        return fold == "real" ? try run(DomainReplayFold.self) : try run(ResendCountsAsSubmission.self)
    }

    /// The lanes' pages and the reading thread's (a page of one event hands each event over
    /// between the two threads).
    @Test("records and reports do not depend on the number of fold lanes or the page sizes")
    func lanesAndPagesDoNotChangeTheResults() throws {
        let (store, db) = try Self.simulated(.sqlite, transactions: 300, digitizations: 200)
        defer { db.remove() }
        let base = FileManager.default.temporaryDirectory.path + "/replay-lanes-\(UUID().uuidString)"
        let page = ReplayRun<DomainReplayFold>.defaultPage
        let shapes: [(lanes: Int, page: Int, scanPage: Int)] = [
            (2, page, 16_384), (1, 1, 1), (2, 7, 3), (3, 1000, 1000), (2, page, 1)
        ]
        defer { for index in shapes.indices { try? FileManager.default.removeItem(atPath: base + "\(index)") } }
        var reports: [String] = []
        for (index, shape) in shapes.enumerated() {
            try Self.record(
                store, as: DomainReplayFold.self, rules: "real", to: base + "\(index)", lanes: shape.lanes,
                page: shape.page, scanPage: shape.scanPage)
            let report = try Self.compare(
                store, as: ResendCountsAsSubmission.self, rules: "resend", with: base + "0", lanes: shape.lanes,
                page: shape.page, scanPage: shape.scanPage)
            #expect(!report.differences.isEmpty)
            reports.append(JSONWriter.string(.object(report.json())))
        }
        let first = FileManager.default.contents(atPath: base + "0")
        for index in shapes.indices.dropFirst() {
            #expect(FileManager.default.contents(atPath: base + "\(index)") == first, "\(shapes[index])")
            #expect(reports[index] == reports[0], "\(shapes[index])")
        }
    }

    @Test("the state's fields written from the aggregate are the summary's values, on every state")
    func fieldsWrittenFromTheAggregateAreTheSummarys() throws {
        let (store, db) = try Self.simulated(.sqlite, transactions: 2_000, digitizations: 1_000)
        defer { db.remove() }
        var folds: [String: DomainReplayFold] = [:]
        let parser = JSONParser()
        var position: Int64 = 1
        var checked = 0
        var categories = Set<String>()
        while true {
            let page = try store.readAll(from: position, limit: 4096)
            guard let last = page.last else { break }
            for event in page {
                let name = event.stream.rawValue
                var fold = try folds[name] ?? DomainReplayFold.start(stream: name)
                let folded = event.data.withUnsafeBytes { data in
                    Result { () throws(ReplayRuleError) in
                        try fold.replay(type: event.type, data: data, occurredAt: event.occurredAt, parser: parser)
                    }
                }
                guard case .success = folded else { continue }
                folds[name] = fold
                var written = SummaryFieldsWriter()
                #expect(fold.writeReplayFields(into: &written))
                let summary = fold.replaySummary
                #expect(written.ends.count == summary.count)
                var start = 0
                for (index, entry) in summary.entries.enumerated() where index < written.ends.count {
                    let value = Array(written.bytes[start..<written.ends[index]])
                    #expect(value == JSONWriter.bytes(entry.value), "\(name) \(entry.key)")
                    start = written.ends[index]
                }
                categories.insert(JSONWriter.string(summary["category"] ?? .null))
                checked += 1
            }
            position = last.position + 1
        }
        #expect(checked > 10_000 && categories.count == 2)
    }

    @Test("a record cut short or edited is refused, naming what is wrong")
    func damagedRecordsAreRefused() throws {
        let (store, db) = try Self.simulated(.sqlite, transactions: 30, digitizations: 20)
        defer { db.remove() }
        let path = FileManager.default.temporaryDirectory.path + "/replay-cut-\(UUID().uuidString).rec"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.record(store, as: DomainReplayFold.self, rules: "real", to: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count - 20).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Self.compare(store, as: DomainReplayFold.self, rules: "real", with: path)
        } throws: { "\($0)".contains("cut short") }
        var edited = [UInt8](whole)
        edited[edited.count / 2] ^= 0x01
        try Data(edited).write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) {
            _ = try Self.compare(store, as: DomainReplayFold.self, rules: "real", with: path)
        }
        // A record of format 1 (journal 1.3.0's first) is refused, naming its format and rules.
        try Data("journal-replay-record 1 r1-2d8a55726cddbdd9\n\u{1}\u{5}".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Self.compare(store, as: DomainReplayFold.self, rules: "real", with: path)
        } throws: {
            "\($0)".contains("is a replay record of format 1; this journal reads format 2 only: record it again")
                && "\($0)".contains("r1-2d8a55726cddbdd9")
        }
        try Data("not a record\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Self.compare(store, as: DomainReplayFold.self, rules: "real", with: path)
        } throws: { "\($0)".contains("is not a replay record") }
    }
}

/// The rules identifier changes whenever the rules do.
@Suite("Rules identifier")
struct RulesIdentifierTests {
    /// Every rules revision with the SHA-256 of its description. A change of a rule or of the
    /// catalog changes the description: bump `DomainRules.revision` and add a line here.
    static let revisions: [(revision: Int, digest: String)] = [
        (1, "2d8a55726cddbdd9194ca0f1c2447c898f5beaab3924950941c99fac15debcaf")
    ]

    @Test("the description's digest is the one recorded for the current revision")
    func currentRevisionMatchesItsDigest() throws {
        let last = try #require(Self.revisions.last)
        let computed = RulesIdentifier.computedDescriptionDigest()
        #expect(
            last.revision == DomainRules.revision,
            "the rules revision changed: add (\(DomainRules.revision), digest) to RulesIdentifierTests.revisions")
        #expect(
            last.digest == computed && DomainRules.descriptionDigest == computed,
            """
            the domain's rules or catalog changed (description digest \(computed)): bump \
            DomainRules.revision, write the digest in DomainRules.descriptionDigest and add its line to \
            RulesIdentifierTests.revisions
            """)
        #expect(RulesIdentifier.current == "r\(last.revision)-" + last.digest.prefix(16))
    }

    @Test("each revision has its own digest and revisions only grow")
    func revisionsAreDistinct() {
        let digests = Set(Self.revisions.map(\.digest))
        #expect(digests.count == Self.revisions.count)
        #expect(zip(Self.revisions, Self.revisions.dropFirst()).allSatisfy { $0.revision < $1.revision })
    }
}

extension ReplayRecordTests {
    /// The log of `store` fed to `run` with each stream renamed by `rename`, its last event known.
    static func feedRenamed<Fold: ReplayFold>(
        _ store: any EventStore, to run: ReplayRun<Fold>, rename: (String) -> String
    ) throws {
        var events: [RecordedEvent] = []
        var position: Int64 = 1
        while true {
            let page = try store.readAll(from: position, limit: 4096)
            guard let last = page.last else { break }
            events += page
            position = last.position + 1
        }
        var keys: [String: Int64] = [:]
        var ends: [String: Int64] = [:]
        for event in events {
            ends[event.stream.rawValue] = event.position
            if keys[event.stream.rawValue] == nil { keys[event.stream.rawValue] = Int64(keys.count) }
        }
        for event in events {
            let stream = event.stream.rawValue
            let fed = event.data.withUnsafeBytes { data in
                Result { () throws(ReplayRecordError) in
                    try run.feed(
                        key: keys[stream] ?? -1, name: { rename(stream) }, end: { ends[stream] },
                        position: event.position, type: event.type, data: data, occurredAt: event.occurredAt)
                }
            }
            try fed.get()
        }
    }

    @Test("names of every form come back from a record: UUIDs in either case, mixed case, no category")
    func namesOfEveryFormComeBack() throws {
        let (store, db) = try Self.simulated(.sqlite, transactions: 200, digitizations: 100)
        defer { db.remove() }
        let path = FileManager.default.temporaryDirectory.path + "/replay-names-\(UUID().uuidString).rec"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var index = 0
        var names: [String: String] = [:]
        // Every third stream's UUID in mixed case, every seventh under a prefix no fold knows.
        let rename = { (stream: String) -> String in
            if let known = names[stream] { return known }
            index += 1
            var renamed = stream
            if index % 7 == 0 {
                renamed = "other-" + stream
            } else if index % 3 == 0, let letter = stream.lastIndex(where: { "abcdefABCDEF".contains($0) }) {
                let flipped = stream[letter].isUppercase ? stream[letter].lowercased() : stream[letter].uppercased()
                renamed = stream.replacingCharacters(in: letter...letter, with: flipped)
            }
            names[stream] = renamed
            return renamed
        }
        let recording = try ReplayRun<DomainReplayFold>(.record(path: path), rules: "real", page: 64)
        try Self.feedRenamed(store, to: recording, rename: rename)
        try recording.finishRecord()
        var recorded: [String] = []
        try recording.outcomes { recorded.append($0.stream) }
        #expect(recorded == names.values.sorted())
        #expect(recorded.contains { $0.hasPrefix("other-") })

        let comparing = try ReplayRun<DomainReplayFold>(.compare(path: path), rules: "real", page: 64)
        try Self.feedRenamed(store, to: comparing, rename: rename)
        let comparison = try comparing.finishComparison()
        #expect(comparison.isSame && comparison.streams == names.count)
    }
}
