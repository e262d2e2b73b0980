import JournalApp
import JournalCore
import JournalHTTP

/// `journal serve [--listen HOST:PORT] [--tokens FILE] [--max-body BYTES] [--request-timeout SECONDS]`:
/// the HTTP API of
/// spec §8 over the journal.
enum ServeCommand {
    static let defaultListen = "127.0.0.1:8080"
    static let defaultMaxBody = 16 << 20
    static let defaultCheckpointEvery: Int64 = 60
    static var drainSeconds: Int { HTTPServing.drainSeconds }

    static let spec = CommandSpec(
        name: "serve",
        summary: "serve the journal over HTTP: append, read, long-poll, queries, metrics",
        options: [
            OptionSpec(
                name: "listen", value: .text(placeholder: "HOST:PORT"),
                help: "address to listen on (default: \(defaultListen); port 0 picks a free one)"),
            OptionSpec(
                name: "tokens", value: .text(placeholder: "FILE"),
                help: "bearer tokens ('journal token'); required to listen beyond loopback"),
            OptionSpec(
                name: "max-body", value: .integer(placeholder: "BYTES", minimum: 1),
                help: "largest POST /v1/events body (default: \(defaultMaxBody), 16 MiB)"),
            OptionSpec(
                name: "request-timeout", value: .integer(placeholder: "SECONDS", minimum: 1),
                help: "longest time from a request's headers to the end of its body (default: 60)"),
            OptionSpec(
                name: "key", value: .text(placeholder: "FILE"),
                help: "sign and keep checkpoints while events arrive (default: $JOURNAL_SIGNING_KEY with "
                    + "--cosign-with)"),
            OptionSpec(
                name: "cosign-with", value: .text(placeholder: "FILE"),
                help: "a policy of witnesses ('URL VKEY' per line) to cosign each checkpoint signed"),
            OptionSpec(
                name: "checkpoint-every", value: .integer(placeholder: "SECONDS", minimum: 1),
                help: "sign at most once per SECONDS while events arrive (default: \(defaultCheckpointEvery))")
        ],
        printsResults: false,
        details: """
            Serves the journal over HTTP/1.1 and prints "listening on http://HOST:PORT" on
            stdout once it accepts requests. SIGTERM or SIGINT: it stops accepting, finishes the
            requests in flight (up to \(drainSeconds) s), and exits 0.

              POST /v1/events            NDJSON events (Content-Type: application/x-ndjson),
                                         validated as 'journal import' does, all or nothing;
                                         200 once durable, 422 with every invalid line, 409
                                         when Journal-Expected-Version: V does not hold, 413
                                         over --max-body, 408 when the body takes longer
                                         than --request-timeout, 415 for another content type
              GET /v1/streams/{stream}   the stream's export lines; 404 when there is none
              GET /v1/events?from=P&limit=N&wait=S
                                         export lines from position P (default 1), at most N
                                         (default 1000, at most 10000); with wait, waits up to
                                         S seconds (at most 60) for the next commit
              GET /v1/query/{name}?since=T&until=T
                                         the JSON of 'journal query NAME --format json'
              GET /metrics               Prometheus text format 0.0.4
              GET /healthz               200 ok (no token needed)
              GET /v1/find?category=C&outcome=O&since=T&...&limit=N
                                         'journal find --format json' (an extension)
              GET /?since=T&until=T      the dashboard: the 'journal report' page, live, with
                                         a stream browser (search, audit, proof checked in
                                         the page); with --tokens a browser without a token
                                         gets 401 and a page asking for a read token

            With --tokens FILE every request but GET /healthz needs "Authorization: Bearer
            <token>" (401 without a known token, 403 when its role does not allow the request;
            roles: read = every GET, append = POST /v1/events, admin = everything). Without
            --tokens only a loopback address (127.0.0.0/8, ::1, localhost) is accepted (exit 2).
            Every error is JSON {"error": "..."}. One JSON line per request goes to stderr
            (time, method, route, status, bytes, durationMs, token name; never a token or a
            body). Details, limits and a curl session: docs/serve.md.

            With --key FILE (or --cosign-with FILE and $JOURNAL_SIGNING_KEY) the server signs
            and keeps a checkpoint of the head at most every --checkpoint-every seconds while
            events arrive, and has the witnesses of --cosign-with cosign it as 'journal cosign'
            does; each round is a JSON line on stderr (docs/witnesses.md).
            """,
        examples: [
            "journal serve --db journal.db",
            "journal serve --listen 0.0.0.0:8080 --tokens tokens.txt --max-body 1048576",
            "journal serve --key journal.key --cosign-with witnesses.txt --checkpoint-every 300"
        ],
        validate: { arguments throws(CLIError) in
            let address = try ListenAddress(parsing: arguments.string("listen") ?? defaultListen)
            if !address.isLoopback && arguments.string("tokens") == nil {
                throw CLIError.usage(
                    "refusing to listen on \(address.url) without --tokens: anyone who can reach "
                        + "it could read and append",
                    hint: "create tokens with 'journal token ROLE NAME "
                        + "--tokens FILE' and pass --tokens FILE, or listen on 127.0.0.1")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let address = try ListenAddress(parsing: arguments.string("listen") ?? defaultListen)
        let tokens = try arguments.string("tokens").map { path throws(CLIError) in try TokenFile.load(path: path) }
        // Before the journal is opened: a missing libmicrohttpd is reported without touching it.
        let library = try LibMicroHTTPD.shared()
        let witnesses = try arguments.string("cosign-with").map(ServeRun.witnessPolicy(path:))
        let signer = try EvidenceFiles.signer(arguments, context, environment: witnesses != nil)
        if signer == nil && (witnesses != nil || arguments.integer("checkpoint-every") != nil) {
            throw CLIError.usage(
                "--cosign-with and --checkpoint-every need the signing key: --key FILE or $JOURNAL_SIGNING_KEY")
        }
        let options = ServeRun.Options(
            address: address, tokens: tokens,
            maxBodyBytes: arguments.integer("max-body").map { Int(clamping: $0) } ?? defaultMaxBody,
            uploadSeconds: arguments.integer("request-timeout").map { Int(clamping: $0) }, signer: signer,
            witnesses: witnesses ?? [],
            checkpointSeconds: arguments.integer("checkpoint-every") ?? defaultCheckpointEvery)
        try ServeRun.run(
            options, library: library, findRequest: FindCommand.request, arguments: arguments, context: context)
    }
}
