import EventStore
import JournalCore

/// A private signing key file (`PRIVATE+KEY+NAME+ID+KEY`, as `journal keygen` writes it): read
/// only when it is the owner's alone (mode 0600 or stricter), and never echoed in an error.
/// `--key FILE`, `--sign FILE` and the embedding front door read keys through here.
package enum SigningKeyFile {
    /// The signer the file at `path` holds.
    /// - Throws: exit 1 when the file cannot be read, can be read by others, or is not a key.
    package static func signer(path: String) throws(CLIError) -> NoteSigner {
        let shown = TextRendering.printable(path)
        let status: FileStatus
        do {
            status = try FileStatus.of(path)
        } catch {
            throw CLIError(
                .failure, "cannot read the key file \(shown): \(error)",
                hint: "create one with 'journal keygen NAME --out \(shown)'")
        }
        guard status.permissions & 0o077 == 0 else {
            throw CLIError(
                .failure,
                "the key file \(shown) can be read by others (mode "
                    + "\(String(status.permissions & 0o777, radix: 8))): a private key must be the owner's only",
                hint: "chmod 600 \(shown), and consider the key exposed")
        }
        let text = String(decoding: try WholeFile.read(path, what: "key file", maxBytes: 4096), as: UTF8.self)
        do {
            return try NoteSigner(parsing: text.trimmingWhitespace())
        } catch {
            // The error names what is wrong with the text, never the key itself.
            throw CLIError(
                .failure, "the key file \(shown) is not a signing key: \(error)",
                hint: "a signing key file holds one line PRIVATE+KEY+NAME+ID+KEY, as 'journal keygen' writes")
        }
    }
}
