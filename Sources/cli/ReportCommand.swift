import JournalApp
import JournalReport
import Projections

/// `journal report --out FILE.html [--since T] [--until T]`: the analytics of a window as one
/// self-contained HTML page, for people and for paper.
enum ReportCommand {
    static let spec = CommandSpec(
        name: "report",
        summary: "the analytics of a window as one self-contained HTML page with charts and tables",
        options: [
            OptionSpec(
                name: "out", value: .text(placeholder: "FILE"), help: "the HTML file to write (mode 0600)",
                isRequired: true),
            OptionSpec(name: "since", value: .timeBound, help: "count events with occurredAt ≥ T (T included)"),
            OptionSpec(name: "until", value: .timeBound, help: "count events with occurredAt < T (T excluded)"),
            ReadModels.modelsOption
        ],
        printsResults: false,
        details: """
            Writes one HTML file that needs nothing else: no script, no font, no style sheet
            or image is fetched; the charts are SVG drawn by the journal, inline. It shows the
            headline rates (docs/spec.md §7), the 3-D Secure funnel, the rates over time (one point
            per minute, 5 minutes, 15 minutes, hour or day, whichever draws the window in a few dozen
            points), challenge rounds and UI types, challenge duration percentiles, errors by
            code and by directory server, and card digitization (decisions, ID&V method
            conversion, OTP outcomes, time to activation).

            Every chart is an SVG with a title and a description for screen readers, beside a
            table of the same numbers; the page prints on paper with the tables under the
            charts. Every number is the value 'journal query NAME --format json' prints for the
            same window, and carries it in data-metric (the JSON path: query, then keys, e.g.
            rates.threeDS.authenticationRate; ratesOverTime is 'query rates --every W' with W
            in the page's data-every) and data-value (its JSON text).

            The header says as of which log: the head position and the time the journal
            recorded it, the latest checkpoint and its signer (its signature is not checked:
            the journal holds no verifier key), what was checked (the head event's chain link,
            the checkpoint's root in the log; exit 4 when one fails), and whether the first and
            last events are marked simulated (meta.simulated).

            The same journal and window give the same bytes: the page holds no time of its
            own. The file is created readable by its owner only (0600).
            """,
        examples: [
            "journal report --out report.html",
            "journal report --out november.html --since 2026-11-01 --until 2026-12-01"
        ],
        validate: { arguments throws(CLIError) in
            guard let out = arguments.string("out") else {
                throw CLIError.usage("'journal report' needs --out FILE", hint: "e.g. journal report --out report.html")
            }
            guard !out.isEmpty else { throw CLIError.usage("--out needs a file name") }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let window = QueryWindow(since: arguments.timeBound("since"), until: arguments.timeBound("until"))
        let line = try ReadModels.withEngine(context, arguments) { store, engine in
            try ReportFile.write(to: arguments.string("out") ?? "", window: window, engine: engine, store: store)
        }
        context.stdout.line(line)
    }
}
