import EventStore
import JournalApp
import JournalCore
import JournalHTTP

/// `journal demo`: the newcomer's tour, on a fresh journal. Each step prints the command a user
/// would type, then runs that very command.
enum DemoCommand {
    static let spec = CommandSpec(
        name: "demo",
        summary: "tour: fill a fresh journal, then verify, audit, replay and analyse it",
        printsResults: false,
        details: """
            Creates a fresh journal (in a new temporary folder, or at --db PATH, which must not
            exist yet), fills it with 300 simulated 3-D Secure transactions and 150 card
            digitizations ('journal simulate --seed 2026'), imports a small hand-written sample (a
            challenged 3-D Secure transaction, a yellow-flow card digitization activated by OTP,
            a frictionless transaction), then
            shows verify, an audit of the challenged transaction and of the yellow-flow journey,
            a replay, a replay of every stream with its digest, the analytics queries, and the
            evidence: a signing key, a signed checkpoint cosigned by a witness (run in this
            process on a loopback port), an inclusion proof, and a bundle checked with no
            journal, and last the analytics report, one HTML page next to the journal
            ('journal report'). Each step prints the command that produced it, so you can run it
            again yourself.
            """,
        examples: ["journal demo", "journal demo --db /tmp/tour.db"],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let path = try DemoScript.freshJournalPath(arguments.string("db"))
        try DemoScript(path: path, host: Host(context: context), context: context).run()
    }

    /// The command line's side of the tour: its commands, run through the parser as a user would
    /// type them, its key files, and a witness served in this process.
    private struct Host: DemoHost {
        let context: CommandContext

        func run(_ command: String, _ arguments: [String], journal: String?) throws {
            guard let spec = JournalCLI.spec(named: command) else {
                preconditionFailure("the demo runs an unknown command \(command)")
            }
            try spec.run(
                try JournalCLI.parser.parse(arguments + (journal.map { ["--db", $0] } ?? []), for: spec), context)
        }

        func createKeyFile(_ path: String, _ text: String, what: String, permissions: UInt32) throws {
            try EvidenceFiles.createNew(path, text, what: what, permissions: permissions)
        }

        func verifiers(file path: String) throws -> [NoteVerifier] {
            try EvidenceFiles.verifiers(value: path, option: "logs")
        }

        func startWitness(signer: NoteSigner, logs: [NoteVerifier], statePath: String) throws
            -> (url: String, stop: () -> Void)?
        {
            try DemoWitness(signer: signer, logs: logs, statePath: statePath, now: context.now).map {
                ($0.url, $0.stop)
            }
        }
    }
}
