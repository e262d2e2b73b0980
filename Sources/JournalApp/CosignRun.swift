import EventStore
import JournalCore

/// `journal cosign`: the witnesses' cosignatures of the latest kept checkpoint collected and
/// kept (spec §11; `Cosigner` does the exchanges).
package struct CosignRun: CommandReport {
    package var outcome: Cosigner.Outcome
    /// How many witnesses were asked.
    package var witnesses: Int

    /// The witnesses of `--witness URL` and `--witness-key VKEY`, paired in order: each key
    /// one cosignature/v1 key (exit 1 otherwise), each URL http://HOST:PORT (exit 2 otherwise).
    package static func witnesses(urls: [String], keys: [String]) throws(CLIError) -> [WitnessEndpoint] {
        var witnesses: [WitnessEndpoint] = []
        for (url, value) in zip(urls, keys) {
            let keys = try EvidenceFiles.verifiers(value: value, option: "witness-key")
            guard keys.count == 1, let key = keys.first, key.type == .cosignatureV1 else {
                throw CLIError(
                    .failure,
                    "--witness-key for \(TextRendering.printable(url)) must be one witness key (cosignature/v1)",
                    hint: "'journal keygen NAME --out FILE --witness' prints it")
            }
            do {
                _ = try HTTPClient.Endpoint(parsing: url)
            } catch {
                throw CLIError.usage("--witness \(TextRendering.printable(url)): \(error)")
            }
            witnesses.append(WitnessEndpoint(url: url, key: key))
        }
        return witnesses
    }

    /// Signs and keeps a checkpoint of the head first when given a `signer`, then collects the
    /// cosignatures of the latest kept checkpoint.
    /// - Throws: exit 1 when the journal keeps no checkpoint.
    package init(
        _ witnesses: [WitnessEndpoint], signer: NoteSigner?, store: any EventStore, now: () -> Timestamp
    ) throws {
        if let signer { _ = try JournalEvidence.sign(store, with: signer) }
        guard let latest = try JournalEvidence.latestCheckpoint(store) else {
            throw CLIError(
                .failure, "the journal keeps no checkpoint to have cosigned",
                hint: "sign one with 'journal checkpoint --key FILE', or pass --key FILE")
        }
        outcome = try Cosigner(witnesses: witnesses).collect(latest, store: store, now: now)
        self.witnesses = witnesses.count
    }

    /// Exit 1 naming each witness that did not cosign (the others' cosignatures are kept).
    package var failure: CLIError? {
        guard !outcome.failures.isEmpty else { return nil }
        let lines = outcome.failures.map { failure in
            "witness \(failure.witness.key.name) (\(TextRendering.printable(failure.witness.url))): " + failure.reason
        }
        return CLIError(
            .failure,
            lines + [
                "\(outcome.failures.count) of \(witnesses) witnesses did not cosign; the others' cosignatures are kept"
            ])
    }

    package func json() -> JSONValue {
        var object = outcome.checkpoint.json.objectValue ?? JSONObject()
        object["cosigned"] = .array(outcome.cosigned.map { .string($0.key.name) })
        object["failed"] = .array(
            outcome.failures.map { failure in
                var entry = JSONObject()
                entry["witness"] = .string(failure.witness.key.name)
                entry["url"] = .string(failure.witness.url)
                entry["reason"] = .string(failure.reason)
                return .object(entry)
            })
        return .object(object)
    }

    package func textLines() -> [String] { TextRendering.lines(of: outcome.checkpoint.noteText) }
}
