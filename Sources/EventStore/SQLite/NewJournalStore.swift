import JournalCore

/// A new SQLite journal written through an ordinary store (every append checked, looked up and
/// committed as usual) into a `NewJournalFile`: the journal appears at its path only when
/// `keep()` is called, and a failure, an interruption (SIGINT, SIGTERM) or a SIGKILL leaves
/// nothing there (what `NewJournalFile` says).
///
/// ```swift
/// guard let new = try NewJournalStore.ofNewJournal(at: "new.db", configuration: .init()) else { … }
/// try new.store?.write { transaction in … }
/// try new.keep()          // closes the store; new.db appears
/// ```
///
/// For writers that cannot use a load (`SQLiteJournalLoad`): `journal import` from stdin, or
/// one that must report every line of its input through the store's transaction.
package final class NewJournalStore {
    /// The store, until `keep()` or `abandon()`. Hold no other reference to it: `keep()` needs
    /// it closed (its last connection empties the WAL into the file).
    package private(set) var store: SQLiteEventStore?
    private let file: NewJournalFile

    /// Where the journal appears when kept.
    package var path: String { file.path }

    /// A new journal at `path` when nothing is there yet and the configuration may create one;
    /// nil when the caller must open the store at `path` instead (it exists, `:memory:`, a
    /// read-only configuration).
    package static func ofNewJournal(at path: String, configuration: SQLiteEventStore.Configuration)
        throws(EventStoreError) -> NewJournalStore?
    {
        guard configuration.createIfMissing, !configuration.readOnly, NewJournalFile.canStart(at: path) else {
            return nil
        }
        return try NewJournalStore(path: path, configuration: configuration)
    }

    /// - Throws: what `NewJournalFile.init` and `SQLiteEventStore.init` throw.
    package init(path: String, configuration: SQLiteEventStore.Configuration) throws(EventStoreError) {
        file = try NewJournalFile(path: path)
        do {
            store = try SQLiteEventStore(path: file.loadingPath, configuration: configuration)
        } catch {
            file.abandon()
            throw error
        }
    }

    deinit { abandon() }

    /// Closes the store and gives the journal its path (`NewJournalFile.keep()`).
    /// - Throws: what `NewJournalFile.keep()` throws; then nothing is at `path`.
    package func keep() throws(EventStoreError) {
        guard store != nil else { throw NewJournalFile.over(path) }
        store = nil
        try file.keep()
    }

    /// Closes the store and removes the file: nothing is left. Idempotent.
    package func abandon() {
        store = nil
        file.abandon()
    }
}
