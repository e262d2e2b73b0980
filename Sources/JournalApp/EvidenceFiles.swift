import EventStore
import JournalCore

/// The files of the evidence commands (spec §6): signing keys, verifier keys, checkpoints and
/// bundles. A signing key must be private (mode 0600 or stricter) and is never echoed. The
/// options that name them are the command line's (`EvidenceFiles+Options.swift` there).
package enum EvidenceFiles {
    /// The signer of `--OPTION FILE`, else (with `environment`) of `$JOURNAL_SIGNING_KEY`; nil when
    /// neither is given.
    package static func signer(
        _ arguments: ParsedArguments, _ context: CommandContext, option: String = "key",
        environment: Bool = true
    ) throws(CLIError) -> NoteSigner? {
        let fromEnvironment =
            environment ? context.environment["JOURNAL_SIGNING_KEY"].flatMap { $0.isEmpty ? nil : $0 } : nil
        guard let path = arguments.string(option) ?? fromEnvironment else { return nil }
        return try signer(path: path)
    }

    package static func signer(path: String) throws(CLIError) -> NoteSigner {
        try SigningKeyFile.signer(path: path)
    }

    /// The verifier keys of `--key VKEY`: the key itself, or a file holding one per line.
    package static func verifiers(_ arguments: ParsedArguments) throws(CLIError) -> [NoteVerifier] {
        guard let value = arguments.string("key") else {
            throw CLIError.usage(
                "give the verifier key with --key VKEY",
                hint: "the signer's 'journal keygen' printed it: NAME+ID+KEY")
        }
        return try verifiers(value: value, option: "key")
    }

    /// The verifier keys of `--OPTION VALUE`: a key, or a file holding one per line.
    package static func verifiers(value: String, option: String) throws(CLIError) -> [NoteVerifier] {
        let isFile = FileSystem.entry(at: value) == .file
        let text =
            isFile
            ? String(decoding: try WholeFile.read(value, what: "verifier key file", maxBytes: 1 << 20), as: UTF8.self)
            : value
        // A private key where a verifier key belongs: refused, never echoed.
        guard !text.contains("PRIVATE+KEY+") else {
            throw CLIError.usage(
                "--\(option) takes a verifier key, not a private key",
                hint: "the verifier key is the line 'journal keygen' printed on stdout")
        }
        let keys: [NoteVerifier]
        do {
            keys = try NoteVerifier.list(parsing: text)
        } catch {
            throw CLIError(
                .failure, "\(isFile ? TextRendering.printable(value) : "--\(option)") is not a verifier key: \(error)",
                hint: "a verifier key is NAME+ID+KEY, as 'journal keygen' prints it")
        }
        guard !keys.isEmpty else { throw CLIError(.failure, "no verifier key in \(TextRendering.printable(value))") }
        return keys
    }

    /// A signed checkpoint read from a file. A file that is not one fails the check (exit 4).
    package static func checkpoint(path: String) throws(CLIError) -> SignedCheckpoint {
        let text = String(decoding: try WholeFile.read(path, what: "checkpoint file", maxBytes: 1 << 16), as: UTF8.self)
        do {
            return try SignedCheckpoint(parsing: text)
        } catch {
            throw CLIError(.integrity, "\(TextRendering.printable(path)) is not a signed checkpoint: \(error)")
        }
    }

    /// Writes `text` to a new file (mode 0600, or `permissions` whatever the umask), refusing to
    /// replace one.
    package static func createNew(
        _ path: String, _ text: String, what: String, permissions: UInt32 = 0o600
    ) throws(CLIError) {
        let shown = TextRendering.printable(path)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(
                path, .writeOnly, options: [.create, .exclusive], permissions: permissions)
        } catch {
            let reason = error == .fileExists ? "it already exists (a key is never overwritten)" : "\(error)"
            throw CLIError(.failure, "cannot create the \(what) \(shown): \(reason)")
        }
        if permissions != 0o600 {
            do {
                try file.setPermissions(permissions)
            } catch {
                file.close()
                throw CLIError(.failure, "cannot set the mode of the \(what) \(shown): \(error)")
            }
        }
        let sink = OutputSink(descriptor: file.rawValue, ownsDescriptor: true)
        sink.write(text)
        do {
            try sink.flush()
        } catch {
            throw CLIError(.failure, "cannot write the \(what) \(shown): \(error)")
        }
    }
}
