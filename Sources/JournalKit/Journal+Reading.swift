import EventStore
import JournalApp
import JournalCore

extension Journal {
    /// A stream's aggregate rebuilt from the log, as `journal state STREAM --format json` prints it.
    public struct StreamState: Sendable {
        /// The stream.
        public var stream: String
        /// The version folded through.
        public var version: Int64
        /// The stream's last version.
        public var lastVersion: Int64
        /// The aggregate's summary: `status`, `step`, `terminal`, `outcome` and the fields of
        /// docs/domain.md.
        public var state: JSONObject

        /// `{"stream":…,"version":…,"lastVersion":…,"state":{…}}`, byte for byte the output of
        /// `journal state STREAM --format json`.
        public var json: String {
            var object = JSONObject()
            object["stream"] = .string(stream)
            object["version"] = .number(JSONNumber(version))
            object["lastVersion"] = .number(JSONNumber(lastVersion))
            object["state"] = .object(state)
            return JSONWriter.string(.object(object))
        }
    }

    /// One event of a replay: the event and the aggregate's step after it folded.
    public struct ReplayStep: Sendable {
        /// The stored event.
        public var event: RecordedEvent
        /// A few words for the state after the event: `challenge (awaitingResponse)`,
        /// `closed: authenticated`.
        public var step: String
    }

    /// Up to `limit` events of the whole log from `position` on (positions start at 1), in
    /// position order; empty past the end.
    /// - Throws: ``JournalError`` (status `.integrity` when a stored event fails its check).
    public func events(from position: Int64 = 1, limit: Int = 1_000) throws(JournalError) -> [RecordedEvent] {
        try reported { try store.readAll(from: position, limit: limit) }
    }

    /// The events of the whole log from `position` on, then each new one as it is committed, by
    /// this process or another: `for try await event in journal.follow(from: 1) { … }`. The
    /// sequence ends only when the task is cancelled.
    public func follow(from position: Int64 = 1, pollInterval: Duration = .milliseconds(100)) -> EventSubscription {
        store.follow(from: position, pollInterval: pollInterval)
    }

    /// The aggregate of `stream` rebuilt from the log through `version` (default: the last).
    /// - Throws: ``JournalError``: `.usage` for a malformed stream name, `.failure` for a stream
    ///   with no events or a version past its last, `.replayFailed` (6) when the stored events no
    ///   longer fold under the current rules.
    public func state(of stream: String, atVersion version: Int64? = nil) throws(JournalError) -> StreamState {
        try reported {
            let name = try existingStream(stream)
            let lastVersion = try store.lastVersion(of: name) ?? 0
            let atVersion = version ?? lastVersion
            guard atVersion >= 0 && atVersion <= lastVersion else {
                throw CLIError(.failure, "\(name) has versions 0…\(lastVersion); there is no version \(atVersion)")
            }
            let outcome = try StreamReplay.fold(name, in: store, through: atVersion)
            try Self.check(outcome, name)
            return StreamState(stream: stream, version: atVersion, lastVersion: lastVersion, state: outcome.summary)
        }
    }

    /// Every event of `stream` folded through the domain rules, in version order, with the step
    /// each one leads to (what `journal replay STREAM` prints).
    /// - Throws: ``JournalError`` as ``state(of:atVersion:)`` does.
    public func replay(_ stream: String) throws(JournalError) -> [ReplayStep] {
        try reported {
            let name = try existingStream(stream)
            var steps: [ReplayStep] = []
            let outcome = try StreamReplay.fold(name, in: store) { event, fold in
                steps.append(ReplayStep(event: event, step: fold.stepDescription))
            }
            try Self.check(outcome, name)
            return steps
        }
    }

    /// The stream named `text`, which must have at least one event.
    func existingStream(_ text: String) throws -> StreamName {
        if let problem = Envelope.streamNameProblem(text) {
            throw CLIError.usage(
                "'\(TextRendering.printable(text))' is not a stream name: \(problem)",
                hint: "stream names look like 3ds-<uuid> or card-<uuid>")
        }
        let stream = try StreamName(text)
        guard try store.lastVersion(of: stream) != nil else {
            throw CLIError(
                .failure, "no stream \(text) in the journal",
                hint: "stream names are compared exactly as written, letter case included")
        }
        return stream
    }

    private static func check(_ outcome: StreamReplay.Outcome, _ stream: StreamName) throws(CLIError) {
        guard let failure = outcome.failure else { return }
        throw CLIError(.replayFailed, "\(stream) no longer folds at version \(failure.version): \(failure.reason)")
    }
}
