import EventStore
import JournalApp
import JournalCore

/// `journal serve`'s work: the journal and its read models opened, the HTTP API over them, a
/// checkpoint signed (and cosigned) while events arrive when there is a key, and the server run
/// until SIGTERM or SIGINT, which drain the requests in flight (``HTTPServing``).
package enum ServeRun {
    /// What the command line asks of the server.
    package struct Options {
        package var address: ListenAddress
        /// Bearer tokens; nil serves every request (loopback only, which the command line checks).
        package var tokens: TokenFile?
        package var maxBodyBytes: Int
        /// The longest time from a request's headers to the end of its body; nil for the default.
        package var uploadSeconds: Int?
        /// The key that signs checkpoints while events arrive; nil signs none.
        package var signer: NoteSigner?
        /// The witnesses to cosign each checkpoint signed.
        package var witnesses: [WitnessEndpoint]
        /// At most one checkpoint per this many seconds.
        package var checkpointSeconds: Int64

        package init(
            address: ListenAddress, tokens: TokenFile?, maxBodyBytes: Int, uploadSeconds: Int?, signer: NoteSigner?,
            witnesses: [WitnessEndpoint], checkpointSeconds: Int64
        ) {
            self.address = address
            self.tokens = tokens
            self.maxBodyBytes = maxBodyBytes
            self.uploadSeconds = uploadSeconds
            self.signer = signer
            self.witnesses = witnesses
            self.checkpointSeconds = checkpointSeconds
        }
    }

    /// Serves the journal `arguments` name with `library` until a stop signal; `findRequest`
    /// reads `GET /v1/find`'s parameters as `journal find` reads its options.
    /// - Throws: exit 1 when the signing key is not a log's key (`keygen --witness` makes a
    ///   witness's); the journal's and the listening socket's errors.
    package static func run(
        _ options: Options, library: LibMicroHTTPD, findRequest: @escaping JournalAPI.FindRequest,
        arguments: ParsedArguments, context: CommandContext
    ) throws {
        if let signer = options.signer, signer.type != .ed25519 {
            throw CLIError(
                .failure, "--key is \(signer.type.summary): checkpoints are signed with the journal's own key",
                hint: "a witness key ('keygen --witness') is for 'journal witness'")
        }
        let store = try JournalAccess.openForServing(context, arguments)
        let projections = ProjectionAccess(engine: try ReadModels.openEngine(context, arguments, store: store))
        defer { projections.close() }

        // Before any server thread starts, so that every thread inherits the signal mask.
        let serving = HTTPServing()
        let accessLog = AccessLog(descriptor: 2, now: context.now)
        let api = JournalAPI(
            store: store, projections: projections, tokens: options.tokens, maxBodyBytes: options.maxBodyBytes,
            accessLog: accessLog, findRequest: findRequest)
        let scheduler = options.signer.map { signer in
            CheckpointScheduler(
                store: store, signer: signer, witnesses: options.witnesses, periodSeconds: options.checkpointSeconds,
                log: accessLog, now: context.now)
        }
        scheduler?.start()
        defer { scheduler?.stop() }
        var limits = HTTPServer.Limits()
        if let seconds = options.uploadSeconds { limits.uploadSeconds = seconds }
        try serving.run(
            options.address, handler: api, library: library, limits: limits,
            stoppedAnswer: JournalAPI.error(
                503,
                "the server stopped before this request was answered; it may have "
                    + "been applied: a retry with the same event ids is safe"),
            context)
    }

    /// The witnesses of the policy file at `path` (`--cosign-with FILE`): `<URL> <witness
    /// verifier key>` per line.
    /// - Throws: exit 1 when the file cannot be read or a line is not a witness.
    package static func witnessPolicy(path: String) throws(CLIError) -> [WitnessEndpoint] {
        let text = String(decoding: try WholeFile.read(path, what: "witness policy", maxBytes: 1 << 20), as: UTF8.self)
        do {
            return try WitnessEndpoint.policy(parsing: text)
        } catch {
            throw CLIError(
                .failure, "the witness policy \(TextRendering.printable(path)) is not valid: \(error)",
                hint: "one witness per line: http://HOST:PORT NAME+ID+KEY (its 'journal keygen --witness' key)")
        }
    }
}
