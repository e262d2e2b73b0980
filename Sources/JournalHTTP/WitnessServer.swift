import EventStore
import JournalApp
import JournalCore

/// `journal witness`: a witness server (spec §11, C2SP tlog-witness) over the files its options
/// name, serving until SIGTERM or SIGINT.
package enum WitnessServer {
    /// The files of a witness: its private key, the verifier keys of the logs it witnesses, its
    /// state, and the bearer tokens it accepts (nil: none required, loopback only).
    package struct Files {
        package var key: String
        package var logs: String
        package var state: String
        package var tokens: String?

        package init(key: String, logs: String, state: String, tokens: String?) {
            (self.key, self.logs, self.state, self.tokens) = (key, logs, state, tokens)
        }
    }

    /// Reads the files, listens on `address` and serves until stopped.
    /// - Throws: exit 1 for a key that is not a witness's, a log key that is not a log's, a
    ///   state that cannot be opened, or an address that cannot be listened on.
    package static func run(_ files: Files, listening address: ListenAddress, _ context: CommandContext) throws {
        let tokens = try files.tokens.map { path throws(CLIError) in try TokenFile.load(path: path) }
        let signer = try EvidenceFiles.signer(path: files.key)
        guard signer.type == .cosignatureV1 else {
            throw CLIError(
                .failure, "--key is \(signer.type.summary), not a witness key",
                hint: "make one with 'journal keygen NAME --out FILE --witness'")
        }
        let logs = try EvidenceFiles.verifiers(value: files.logs, option: "logs")
        if let key = logs.first(where: { $0.type != .ed25519 }) {
            throw CLIError(.failure, "--logs holds \(key.name), \(key.type.summary): a log's key is needed")
        }
        let library = try LibMicroHTTPD.shared()
        let serving = HTTPServing()
        let now = context.now
        let witness: Witness
        do {
            witness = try Witness(
                signer: signer, logs: logs, statePath: files.state,
                clock: { UInt64(max(1, now().millisecondsSinceEpoch / 1000)) })
        } catch {
            throw CLIError(.failure, "\(error)")
        }
        let api = WitnessAPI(witness: witness, tokens: tokens, accessLog: AccessLog(descriptor: 2, now: context.now))
        try serving.run(
            address, handler: api, library: library, limits: HTTPServer.Limits(eventThreads: 1),
            stoppedAnswer: WitnessAPI.text(503, "the witness stopped before it answered; nothing was cosigned\n"),
            context)
    }
}
