import EventStore
import JournalApp
import JournalCore

/// The `STREAM` argument of export, audit, state and replay.
enum StreamArgument {
    /// A usage error (exit 2) when `name` is not a stream name of spec §1.
    static func check(_ name: String) throws(CLIError) {
        if let problem = Envelope.streamNameProblem(name) {
            throw CLIError.usage(
                "'\(TextRendering.printable(name))' is not a stream name: \(problem)",
                hint: "stream names look like 3ds-<uuid> or card-<uuid>; "
                    + "'journal export' lists the events of every stream")
        }
    }

    /// The stream, which must have at least one event (else exit 1).
    static func existing(_ name: String, in store: any EventStore) throws -> StreamName {
        let stream = try StreamName(name)
        guard try store.lastVersion(of: stream) != nil else {
            throw CLIError(
                .failure, "no stream \(name) in the journal",
                hint: "stream names are compared exactly as written, letter case included")
        }
        return stream
    }
}
