import EventStore
import JournalCore

/// A signing key and the files that hold it, as `journal keygen` makes and prints it (spec §6,
/// §9): the private key in a file readable by its owner only, the verifier key beside it in
/// FILE.pub (mode 0644); neither file is ever replaced.
package struct KeyPairFiles: CommandReport {
    package var signer: NoteSigner
    package var keyFile: String
    /// nil for a key read back (`keygen --public`).
    package var publicFile: String?

    /// The key of the private key file at `path` (`keygen --public FILE`).
    package init(reading path: String) throws(CLIError) {
        signer = try EvidenceFiles.signer(path: path)
        keyFile = path
        publicFile = nil
    }

    /// A new key named `name` (a witness's cosigning key with `witness`) in `path` and
    /// `path.pub`: both names must be free before anything is written, so a key pair is made
    /// whole or not at all.
    /// - Throws: exit 1 when either file exists or cannot be written; exit 2 for a name that
    ///   cannot be a key's.
    package init(creating name: String, at path: String, witness: Bool) throws(CLIError) {
        let publicPath = path + ".pub"
        for (file, what) in [(path, "key file"), (publicPath, "verifier key file")]
        where FileSystem.entry(at: file) != .missing {
            throw CLIError(
                .failure,
                "cannot create the \(what) \(TextRendering.printable(file)): it already exists "
                    + "(a key is never overwritten); nothing was written",
                hint: "choose another --out, or print the existing key's verifier key with "
                    + "'journal keygen --public \(TextRendering.printable(path))'")
        }
        do {
            signer = try NoteSigner.generate(name: name, type: witness ? .cosignatureV1 : .ed25519)
        } catch {
            throw CLIError.usage(
                "cannot make a key named '\(TextRendering.printable(name))': \(error)",
                hint: "a key name is non-empty text without spaces or '+', e.g. payments.example/journal")
        }
        try EvidenceFiles.createNew(path, signer.privateKeyText + "\n", what: "key file")
        do {
            try EvidenceFiles.createNew(
                publicPath, signer.verifier.keyText + "\n", what: "verifier key file", permissions: 0o644)
        } catch {
            FileSystem.remove(path)
            throw error
        }
        keyFile = path
        publicFile = publicPath
    }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["name"] = .string(signer.name)
        object["keyID"] = .string(String(signer.verifier.keyText.split(separator: "+")[1]))
        object["verifierKey"] = .string(signer.verifier.keyText)
        object["keyFile"] = .string(keyFile)
        if let publicFile { object["verifierKeyFile"] = .string(publicFile) }
        return .object(object)
    }

    package func textLines() -> [String] { [signer.verifier.keyText] }
}
