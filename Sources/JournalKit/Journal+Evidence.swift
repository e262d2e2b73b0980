import EventStore
import JournalApp
import JournalCore

extension Journal {
    /// Signs the journal's head with the private key in `keyFile` and keeps the checkpoint in the
    /// journal, as `journal checkpoint --key FILE` does.
    ///
    /// - Parameter keyFile: a file `journal keygen NAME --out FILE` wrote; it must be the owner's
    ///   only (mode 0600). The key is never echoed.
    /// - Returns: the signed note (C2SP signed-note text), its tree size and root.
    /// - Throws: ``JournalError``: `.failure` for a key file that is unreadable, readable by
    ///   others or not a key, and for an empty journal; `.integrity` when the log was cut.
    @discardableResult
    public func checkpoint(keyFile: String) throws(JournalError) -> StoredCheckpoint {
        try reported {
            let signer = try SigningKeyFile.signer(path: keyFile)
            return try JournalEvidence.sign(store, with: signer)
        }
    }

    /// The tlog-proof (C2SP) that the event at `position` is in the tree of the latest checkpoint,
    /// as `journal prove POSITION` writes it (``TlogProof/text``).
    /// - Throws: ``JournalError``: `.failure` when the journal keeps no checkpoint or the position
    ///   is not in its tree (sign a newer one with ``checkpoint(keyFile:)``).
    public func prove(position: Int64) throws(JournalError) -> TlogProof {
        try reported { try JournalEvidence.inclusion(of: position, against: try latestCheckpoint(), in: store) }
    }

    /// The `journal-bundle/1` of `stream` against the latest checkpoint: its events, each with
    /// its inclusion proof, and the signed note, as `journal bundle STREAM` writes it
    /// (``EvidenceBundle/jsonText``). Anyone holding the verifier key checks it offline with
    /// ``Journal/checkBundle(_:verifierKeys:)`` or `journal check`.
    /// - Throws: ``JournalError``: `.failure` when the journal keeps no checkpoint or the stream
    ///   has no event in its tree.
    public func bundle(of stream: String) throws(JournalError) -> EvidenceBundle {
        try reported {
            let name = try existingStream(stream)
            return try JournalEvidence.bundle(name, against: try latestCheckpoint(), in: store)
        }
    }

    /// Checks a bundle offline, as `journal check FILE --key VKEY` does: the checkpoint's
    /// signature by one of `verifierKeys`, every event's inclusion proof, and the chain of the
    /// stream's events. Needs no journal.
    ///
    /// - Parameters:
    ///   - bundle: the bundle's bytes (``EvidenceBundle/jsonText``).
    ///   - verifierKeys: verifier keys `NAME+ID+KEY`, one per line, as `journal keygen` prints.
    /// - Returns: the checked stream, checkpoint and events.
    /// - Throws: ``JournalError`` with status `.integrity` (4) naming the first failure;
    ///   `.usage` when a private key is given where a verifier key belongs (never echoed).
    public static func checkBundle(_ bundle: some Collection<UInt8>, verifierKeys: String) throws(JournalError)
        -> VerifiedBundle
    {
        try reported {
            guard !verifierKeys.contains("PRIVATE+KEY+") else {
                throw CLIError.usage("a verifier key is needed, not a private key")
            }
            let verifiers: [NoteVerifier]
            do {
                verifiers = try NoteVerifier.list(parsing: verifierKeys)
            } catch {
                throw CLIError(.failure, "not a verifier key: \(error)")
            }
            guard !verifiers.isEmpty else { throw CLIError(.failure, "no verifier key given") }
            return try BundleCheckReport.check(bundle, with: verifiers, named: nil)
        }
    }

    /// The latest checkpoint the journal keeps.
    private func latestCheckpoint() throws -> SignedCheckpoint {
        guard let signed = try JournalEvidence.latestCheckpoint(store) else {
            throw CLIError(
                .failure, "the journal keeps no checkpoint",
                hint: "sign one first: 'journal checkpoint --key FILE', or Journal.checkpoint(keyFile:)")
        }
        return signed
    }
}
