import JournalApp

/// `journal publish --out DIR [--entries]`: the latest kept checkpoint and its tree as static
/// files in the layout of C2SP tlog-tiles (spec §10; `MirrorPublisher` does the work).
enum PublishCommand {
    static let spec = CommandSpec(
        name: "publish",
        summary: "write the signed tree as static files (C2SP tlog-tiles) for any web server to serve",
        options: [
            OptionSpec(
                name: "out", value: .text(placeholder: "DIR"),
                help: "the mirror folder (created when missing; a mirror written before is brought up to date)"),
            OptionSpec(
                name: "entries", value: .flag,
                help: "also write the entry bundles (the events' leaf lines, mode 0600)")
        ],
        details: """
            Writes the latest kept checkpoint ('journal checkpoint --key FILE' signs one) and the
            Merkle tree it signs in the layout of C2SP tlog-tiles: DIR/checkpoint, the hash tiles
            DIR/tile/<L>/<N> (256 hashes of 32 bytes) and the partial tiles DIR/tile/<L>/<N>.p/<W>.
            <N> is written in groups of three digits, all but the last prefixed with x
            (x001/x234/067). With --entries, also the entry bundles DIR/tile/entries/<N> (and
            .p/<W>): each entry is a 2-byte big-endian length and the event's leaf line (its
            export line); an event over 65,535 bytes stops the run before anything is written.

            The tiles are read from the journal, not recomputed. Run again after more events and
            checkpoints, it writes only the files the new tree adds (a file already there is never
            written again) and replaces DIR/checkpoint last, atomically: a reader of DIR never finds
            a checkpoint whose tiles are missing, even when a run is killed. Hash tiles and the
            checkpoint are mode 0644 (they reveal no event); entry bundles 0600. One publish at a
            time per DIR. Check a mirror with 'journal verify --mirror DIR --key VKEY'; restore
            from one written with --entries with 'journal restore DIR --key VKEY --db NEW'.
            """,
        examples: [
            "journal publish --out /srv/www/journal --db journal.db",
            "journal publish --out mirror --entries --format json"
        ],
        validate: { arguments throws(CLIError) in
            guard let out = arguments.string("out"), !out.isEmpty else {
                throw .usage("publish needs --out DIR", hint: "journal publish --out mirror")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        let out = arguments.string("out") ?? ""
        try MirrorPublication(store, to: out, entries: arguments.flag("entries")).print(arguments.format, context)
    }
}
