import Foundation
import Testing

/// The *as of* lines of `journal report` (and of the dashboard, which shares them): the head and
/// its time, the latest checkpoint and its signer, what was checked, and whether the events are
/// marked simulated; through the built executable.
@Suite("journal report: as of which log (end to end)")
struct ReportAsOfEndToEndTests {
    /// The text of the element with `id` (its attributes and its content up to `</dd>`).
    static func element(_ html: String, id: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\"") else { return nil }
        guard let end = html[start.upperBound...].range(of: "</dd>") else { return nil }
        return String(html[start.lowerBound..<end.lowerBound])
    }

    private func report(_ runner: JournalRunner) throws -> String {
        let result = try runner.run(["report", "--out", runner.path("report.html")])
        #expect(result.status == 0, "\(result.stderr)")
        return try runner.read("report.html")
    }

    @Test("a simulated, signed journal's report names its head, head time, checkpoint, signer and checks")
    func simulatedSignedJournal() throws {
        let runner = try JournalRunner()
        let simulate = try runner.run(["simulate", "--seed", "5", "--transactions", "20", "--digitizations", "10"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let keygen = try runner.run(["keygen", "asof.example/journal", "--out", runner.path("signing.key")])
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let keyID = try #require(keygen.stdout.split(separator: "+").dropFirst().first.map(String.init))
        #expect(try runner.run(["checkpoint", "--key", runner.path("signing.key")]).status == 0)
        let exported = try runner.exportedObjects()
        let head = try #require(exported.last)
        let position = try #require(head["position"] as? Int)
        let recordedAt = try #require(head["recordedAt"] as? String)
        let html = try report(runner)

        let asOf = try #require(Self.element(html, id: "as-of"))
        #expect(asOf.contains(#"data-head="\#(position)""#))
        #expect(asOf.contains(#"data-recorded-at="\#(recordedAt)""#))
        #expect(asOf.contains("head position \(position), recorded \(recordedAt)"))
        let checkpoint = try #require(Self.element(html, id: "checkpoint"))
        #expect(checkpoint.contains(#"data-size="\#(position)""#))
        #expect(checkpoint.contains(#"data-origin="asof.example/journal""#))
        #expect(checkpoint.contains("signed by asof.example/journal (key \(keyID))"))
        #expect(checkpoint.contains(#"data-signature="unchecked""#))
        #expect(checkpoint.contains("Signature not checked by this page"))
        let integrity = try #require(Self.element(html, id: "integrity"))
        #expect(integrity.contains("its chain link holds"))
        #expect(integrity.contains("the log still has the tree of the latest checkpoint"))
        #expect(integrity.contains("Not checked here: every other event"))
        let simulated = try #require(Self.element(html, id: "simulated"))
        #expect(simulated.contains(#"data-simulated="all""#))
        #expect(simulated.contains("positions 1 and \(position)) are marked simulated"))
        #expect(html.contains(#"<p class="simulated-banner" role="note"><strong>Simulated data:</strong> these "#))
        // Nothing of the clock: the same journal gives the same bytes.
        #expect(try report(runner) == html)
    }

    @Test("imported events are not said to be simulated, and a journal without a checkpoint says so")
    func importedJournalWithoutCheckpoint() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.green(2))
        let html = try report(runner)
        #expect(try #require(Self.element(html, id: "as-of")).contains(#"data-head="13""#))
        #expect(try #require(Self.element(html, id: "checkpoint")).contains("none kept"))
        let simulated = try #require(Self.element(html, id: "simulated"))
        #expect(simulated.contains(#"data-simulated="none""#))
        #expect(simulated.contains("neither the first nor the last event (positions 1 and 13) is marked simulated"))
        #expect(!html.contains(#"class="simulated-banner""#))
    }

    @Test("a log that starts simulated and goes on with other events is said to mix them")
    func mixedJournal() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        var lines = events.green(1) + events.green(2)
        lines[0] = lines[0].replacingOccurrences(of: #""data":"#, with: #""meta":{"simulated":true},"data":"#)
        try runner.importLegal(lines)
        let html = try report(runner)
        let simulated = try #require(Self.element(html, id: "simulated"))
        #expect(simulated.contains(#"data-simulated="first""#))
        #expect(simulated.contains("these numbers mix simulated and other events"))
        #expect(html.contains(#"class="simulated-banner""#))
    }

    @Test("a report of a log whose head event was changed exits 4 naming its position and writes nothing")
    func changedHeadIsRefused() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.green(2))
        try runner.tamper(replacing: "dc-2", with: "dc-9")
        let result = try runner.run(["report", "--out", runner.path("report.html")])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("position 13"), "\(result.stderr)")
        #expect(!runner.exists("report.html"))
    }
}
