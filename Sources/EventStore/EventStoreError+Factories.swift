import CSQLite

extension EventStoreError {
    /// Maps a SQLite failure to a store error, keeping SQLite's extended code as `backendCode`.
    /// The message names what the store was doing and SQLite's reason, never bound values.
    package init(sqlite error: SQLiteError, doing what: String, stream: String? = nil) {
        let code: Code
        let reason: String
        switch error.resultCode {
        case SQLITE_BUSY, SQLITE_LOCKED:
            code = .busy
            reason = "the journal is locked by another writer (busy timeout exceeded)"
        case SQLITE_FULL:
            code = .full
            reason = "the disk or the database size limit is full"
        case SQLITE_READONLY:
            code = .readOnly
            reason = "the journal is read-only"
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            code = .notAJournal
            reason = "the file is not a journal or is damaged (\(error.message))"
        case SQLITE_CANTOPEN:
            code = .missing
            reason = "the file cannot be opened (\(error.message))"
        case SQLITE_TOOBIG:
            code = .tooLarge
            reason = "a value is larger than SQLite allows"
        case SQLITE_CONSTRAINT:
            code = .integrity
            reason = "the schema refused the change (\(error.message))"
        default:
            code = .io
            reason = error.message
        }
        self.init(
            code: code, message: "\(what): \(reason)", stream: stream,
            backendCode: String(error.extendedCode))
    }

    static func conflict(stream: StreamName, expected: ExpectedVersion, actual: Int64?) -> EventStoreError {
        let actualText = actual.map { "is at version \($0)" } ?? "does not exist"
        return EventStoreError(
            code: .conflict,
            message: "stream \(stream) \(actualText), but the append expected \(expected)",
            stream: stream.rawValue, expectedVersion: expected, actualVersion: actual)
    }

    static func duplicateID(_ id: String, stream: StreamName, storedStream: StreamName, position: Int64)
        -> EventStoreError
    {
        let location = storedStream == stream ? "in stream \(stream)" : "in stream \(storedStream), not \(stream)"
        return EventStoreError(
            code: .duplicateIDConflict,
            message: "event id \(id) is already stored at position \(position) \(location) with other content",
            stream: stream.rawValue, position: position, eventID: id)
    }

    static func integrity(at position: Int64, _ reason: String) -> EventStoreError {
        EventStoreError(
            code: .integrity, message: "integrity check failed at position \(position): \(reason)",
            position: position)
    }

    /// An integrity failure found while reading the event at `position` (a missing stream or type
    /// row, say) that does not name a position yet, named as that event's; any other error as it is.
    func located(at position: Int64) -> EventStoreError {
        guard code == .integrity, self.position == nil else { return self }
        return .integrity(at: position, message)
    }

    static func invalid(_ message: String, stream: StreamName? = nil, eventID: String? = nil) -> EventStoreError {
        EventStoreError(code: .invalidInput, message: message, stream: stream?.rawValue, eventID: eventID)
    }
}
