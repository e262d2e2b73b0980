extension SQLiteEventStore {
    /// Where `journal restore` writes at `path`: always a load of a new journal
    /// (`SQLiteLoadImport` over `SQLiteJournalLoad`, as `journal import` into a new journal), so
    /// that nothing is at `path` until the restore is complete.
    /// - Throws: `.invalidInput` when something is at `path` (a restore only creates a new
    ///   journal), the load's errors.
    package static func openForRestore(
        path: String, configuration: Configuration, batchEvents: Int = SQLiteLoadImport.defaultBatchEvents
    ) throws(EventStoreError) -> ImportTarget {
        guard SQLiteJournalLoad.canStart(at: path) else {
            throw EventStoreError(
                code: .invalidInput,
                message: path.isEmpty || path == ":memory:"
                    ? "a restore needs a file path, not \"\(path)\""
                    : "\(path) exists: a restore only creates a new journal")
        }
        var configuration = configuration
        configuration.createIfMissing = true
        configuration.readOnly = false
        let load = try SQLiteJournalLoad(path: path, configuration: configuration)
        return .load(try SQLiteLoadImport(load: load, configuration: configuration, batchEvents: batchEvents))
    }
}

extension PostgresEventStore {
    /// Where `journal restore` writes at `url`: the journal there, created when the database has
    /// none, and written in one transaction (`JournalRestore`). A journal that holds an event or
    /// a checkpoint is refused; an empty one (as a failed restore leaves it) is taken.
    /// - Throws: `.invalidInput` when the journal at `url` is not empty; the store's errors.
    package static func openForRestore(url: String, configuration: Configuration) throws(EventStoreError)
        -> ImportTarget
    {
        var existing = configuration
        existing.createIfMissing = false
        existing.readOnly = false
        let store: PostgresEventStore
        do {
            store = try PostgresEventStore(url: url, configuration: existing)
        } catch  where error.code == .missing {
            var creating = configuration
            creating.createIfMissing = true
            creating.readOnly = false
            return .store(try PostgresEventStore(url: url, configuration: creating))
        }
        guard try store.headPosition() == 0, try store.latestCheckpoint() == nil else {
            throw EventStoreError(
                code: .invalidInput,
                message: "\(store.location) already holds a journal: a restore only creates a new journal")
        }
        return .store(store)
    }
}
