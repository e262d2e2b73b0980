import EventStore
import JournalCore
import Simulator

/// `journal simulate`'s work: the workload profile, the seeded ``Simulation``, and its events
/// written as NDJSON or appended to the journal. A SQLite journal that does not exist yet is
/// loaded in one go (it appears complete or not at all); an existing one, or PostgreSQL, gets
/// ordinary appends, and is refused when it already holds events unless told otherwise.
package enum SimulateRun {
    /// The built-in profile `name` (`default` when nil, or the file's `base`), with the figures of
    /// the JSON profile file at `path` when one is given.
    /// - Throws: exit 2 when the file cannot be read or is not a profile.
    package static func profile(named name: String?, file path: String?) throws(CLIError) -> WorkloadProfile {
        guard let path else {
            // The parser only accepts built-in names.
            return WorkloadProfile.builtIn(named: name ?? "default") ?? .realistic
        }
        let bytes = try WholeFile.read(path, what: "profile file", maxBytes: 1 << 20, status: .usage)
        do {
            return try WorkloadProfile.load(file: bytes, sourceLabel: "profile file \(path)", base: name)
        } catch {
            throw CLIError(
                .usage, "profile file \(TextRendering.printable(path)): \(error)",
                hint: "'journal simulate --print-profile' prints a complete profile to start from")
        }
    }

    /// The simulation of `seed` and the counts under `profile`.
    /// - Throws: exit 1 when the profile's figures do not make a workload.
    package static func simulation(
        seed: UInt64, transactions: Int, digitizations: Int, profile: WorkloadProfile, start: Timestamp
    ) throws(CLIError) -> Simulation {
        do {
            return try Simulation(
                seed: seed, transactions: transactions, digitizations: digitizations, profile: profile, start: start)
        } catch {
            throw CLIError(.failure, "profile \(profile.name): \(error)")
        }
    }

    /// Writes every event of `simulation` to `out` as NDJSON lines (the import envelope).
    package static func writeNDJSON(_ simulation: Simulation, to out: OutputSink) throws(CLIError) {
        var line: [UInt8] = []
        line.reserveCapacity(1 << 10)
        var writer = EnvelopeWriter()
        while let event = simulation.next() {
            line.removeAll(keepingCapacity: true)
            writer.write(event, into: &line)
            line.append(UInt8(ascii: "\n"))
            out.write(bytes: line)
        }
        try out.flush()
    }

    /// Appends every event of `simulation` to the journal `arguments` name, in store transactions
    /// of `batchSize` events (default: ``SimulationAppender``'s for a load or for appends), then
    /// signs and keeps a checkpoint with `signer`.
    /// - Throws: exit 1, nothing written, when the journal already holds events and
    ///   `intoExisting` is false; the store's errors.
    package static func append(
        _ simulation: Simulation, batchSize: Int?, intoExisting: Bool, signer: NoteSigner?,
        progress: ProgressReporter?, arguments: ParsedArguments, context: CommandContext
    ) throws -> SimulationSummary {
        let store: any BatchAppending
        let load: (any BatchLoadWriting)?
        switch try JournalAccess.openForBulkAppend(context, arguments) {
        case let .load(newJournal):
            (store, load) = (newJournal, newJournal)
        case let .store(existing):
            if !intoExisting { try refuseRealJournal(existing, location: context.journalPath(arguments)) }
            (store, load) = (existing, nil)
        }
        let appender = SimulationAppender(
            batchSize: batchSize
                ?? (load == nil ? SimulationAppender.defaultBatchSize : SimulationAppender.defaultLoadBatchSize))
        let report = try appender.append(simulation, to: store) { events in
            progress?.update(done: Int64(events), events: Int64(events))
        }
        if let load {
            // Building the indexes of a large load takes a while: said on a terminal.
            let announces = progress?.style == .redrawn && report.events >= 200_000
            if announces {
                progress?.clear()
                context.stderr.write("\rbuilding the indexes of \(report.events) events…")
                try? context.stderr.flush()
            }
            try load.finish()
            if announces {
                context.stderr.write("\r\u{1B}[K")
                try? context.stderr.flush()
            }
        }
        progress?.finish(done: Int64(report.events), events: Int64(report.events))
        // Signed once the events are committed (a new journal is in place only after `finish`).
        let checkpoint = try signer.map { signer in
            (try JournalEvidence.sign(JournalAccess.openForWriting(context, arguments), with: signer), signer.name)
        }
        return SimulationSummary(simulation: simulation, report: report, checkpoint: checkpoint)
    }

    /// Fake events must not mix into a real journal by accident (`$JOURNAL_DB` or `./journal.db`
    /// is the default, and nothing can be removed from a journal): one that already holds events
    /// is refused.
    private static func refuseRealJournal(_ store: any EventStore, location: String) throws {
        let head = try store.headPosition()
        guard head > 0 else { return }
        throw CLIError(
            .failure,
            "\(JournalBackend(location: location).display) already holds \(head) events; simulated events would "
                + "mix into it for good (a journal cannot be cleaned). Nothing was written",
            hint: "simulate into a new journal with --db PATH, or pass --into-existing to append anyway")
    }
}
