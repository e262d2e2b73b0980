import JournalCore

extension SQLiteJournal {
    /// The id of a stream of a journal being loaded, past the caches: the candidate of
    /// `newJournalStreams`, confirmed by its stored name (see `NewJournalStreams`).
    func streamIDWithoutNameIndex(_ stream: StreamName) throws(EventStoreError) -> Int64? {
        guard let id = newJournalStreams?.candidate(for: stream),
            try storedStreamName(id: id) == stream.rawValue
        else { return nil }
        rememberStream(stream, id: id)
        return id
    }

    /// The name of stream `id` as the open transaction sees it; nil when there is no such row.
    private func storedStreamName(id: Int64) throws(EventStoreError) -> String? {
        if let name = streamNames[id] ?? write?.newStreamNames[id] { return name.rawValue }
        return try storedStreamText(id: id)
    }
}
