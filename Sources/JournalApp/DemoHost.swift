import EventStore
import JournalCore

/// What the tour of `journal demo` (``DemoScript``) needs of the command line that runs it.
package protocol DemoHost {
    /// Runs `journal COMMAND ARGUMENTS…` as a user would type it, with `--db JOURNAL` when a
    /// journal is given (nil for a command that opens none).
    func run(_ command: String, _ arguments: [String], journal: String?) throws
    /// Writes `text` to a new key file at `path` with mode `permissions`, refusing to replace one.
    func createKeyFile(_ path: String, _ text: String, what: String, permissions: UInt32) throws
    /// The verifier keys the file at `path` holds.
    func verifiers(file path: String) throws -> [NoteVerifier]
    /// A witness of `logs` cosigning with `signer` in this process on a free loopback port, its
    /// state in `statePath`: its URL and how to stop it; nil when it cannot be served.
    func startWitness(signer: NoteSigner, logs: [NoteVerifier], statePath: String) throws
        -> (url: String, stop: () -> Void)?
}
