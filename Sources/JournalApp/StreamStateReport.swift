import EventStore
import JournalCore

/// `journal state STREAM [--at-version V]`: a stream's aggregate rebuilt from the log, folding
/// its events 0…V through the domain rules.
package struct StreamStateReport: CommandReport {
    package var stream: StreamName
    package var version: Int64
    package var lastVersion: Int64
    /// The aggregate's summary.
    package var state: JSONObject

    /// - Throws: exit 1 for a version the stream does not have; exit 6 when the events no longer
    ///   fold.
    package init(_ stream: StreamName, at version: Int64?, in store: any EventStore) throws {
        lastVersion = try store.lastVersion(of: stream) ?? 0
        let atVersion = version ?? lastVersion
        guard atVersion <= lastVersion else {
            throw CLIError(.failure, "\(stream) has versions 0…\(lastVersion); there is no version \(atVersion)")
        }
        let outcome = try StreamReplay.fold(stream, in: store, through: atVersion)
        if let failure = outcome.failure {
            throw CLIError(
                .replayFailed, "\(stream) no longer folds at version \(failure.version): \(failure.reason)",
                hint: "'journal replay \(stream)' shows every step up to the failure")
        }
        self.stream = stream
        self.version = atVersion
        state = outcome.summary
    }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["stream"] = .string(stream.rawValue)
        object["version"] = .number(JSONNumber(version))
        object["lastVersion"] = .number(JSONNumber(lastVersion))
        object["state"] = .object(state)
        return .object(object)
    }

    package func textLines() -> [String] {
        let of = version == lastVersion ? "the last" : "of 0…\(lastVersion)"
        return ["\(stream) at version \(version) (\(of))"] + TextRendering.keyValueLines(state)
    }
}
