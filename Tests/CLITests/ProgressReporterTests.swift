import Testing

@testable import JournalApp
@testable import JournalCommandLine

/// The progress line, under a clock the test moves.
@Suite("ProgressReporter")
struct ProgressReporterTests {
    final class Recorder {
        var now: Int64 = 0
        var written: [String] = []
    }

    func reporter(
        _ recorder: Recorder, unit: ProgressReporter.Unit = .bytes, total: Int64? = 4 * 1024 * 1024,
        style: ProgressReporter.Style = .lines
    ) -> ProgressReporter {
        ProgressReporter(
            verb: "importing", unit: unit, total: total, style: style,
            clock: { recorder.now }, write: { recorder.written.append($0) })
    }

    @Test("plain lines come every 3 seconds with done of total, the rate and the time left, then a final line")
    func plainLinesEveryFewSeconds() {
        let recorder = Recorder()
        let progress = reporter(recorder)
        recorder.now = 1_000_000_000
        progress.update(done: 1024 * 1024, events: 5_000)
        #expect(recorder.written.isEmpty)
        recorder.now = 3_000_000_000
        progress.update(done: 1024 * 1024, events: 6_000)
        #expect(
            recorder.written == [
                "importing: 1.0 MiB of 4.0 MiB (25%), 6,000 events, 2,000 events/s, about 9.0 s left\n"
            ])
        recorder.now = 4_000_000_000
        progress.update(done: 2 * 1024 * 1024, events: 8_000)
        #expect(recorder.written.count == 1)
        recorder.now = 8_000_000_000
        progress.finish(done: 4 * 1024 * 1024, events: 16_000)
        #expect(
            recorder.written.last
                == "importing: 4.0 MiB of 4.0 MiB (100%), 16,000 events, 2,000 events/s, done in 8.0 s\n")
        progress.finish(done: 4 * 1024 * 1024, events: 16_000)
        #expect(recorder.written.count == 2)
    }

    @Test("on a terminal the line is redrawn in place and erased at the end")
    func redrawnOnATerminal() {
        let recorder = Recorder()
        let progress = reporter(recorder, unit: .events, total: 1_000_000, style: .redrawn)
        recorder.now = 500_000_000
        progress.update(done: 100_000, events: 100_000)
        #expect(
            recorder.written == [
                "\rimporting: 100,000 of 1,000,000 events (10%), 200,000 events/s, about 4.5 s left\u{1B}[K"
            ])
        progress.finish(done: 1_000_000, events: 1_000_000)
        #expect(recorder.written.last == "\r\u{1B}[K")
    }

    @Test("without a total the line has the count and the rate, no estimate")
    func withoutATotal() {
        let recorder = Recorder()
        let progress = reporter(recorder, unit: .events, total: nil)
        recorder.now = 120_000_000_000
        progress.update(done: 1_200_000, events: 1_200_000)
        #expect(recorder.written == ["importing: 1,200,000 events, 10,000 events/s\n"])
        #expect(ProgressReporter.duration(3725) == "1 h 02 min")
        #expect(ProgressReporter.duration(65) == "1 min 05 s")
        #expect(ProgressReporter.bytes(512) == "512 B")
        #expect(ProgressReporter.bytes(1_048_575) == "1048575 B")
        #expect(ProgressReporter.bytes(3 * 1024 * 1024 / 2) == "1.5 MiB")
        #expect(ProgressReporter.bytes(1_028_100, scale: 10 * 1024 * 1024) == "1.0 MiB")
        #expect(ProgressReporter.bytes(3 * 1024 * 1024 * 1024, scale: 4 * 1024 * 1024 * 1024) == "3.0 GiB")
    }
}
