import JournalCore

/// A SQLite journal file made under a temporary name beside the path it is for
/// (`PATH.loading-XXXXXX`), and given that path only when it is complete: what a command that
/// creates a journal in one go (`journal simulate` and `journal import` into a new path through
/// `SQLiteJournalLoad`, an import through a store, a restore) writes into, so that a failure
/// or an interruption leaves nothing at PATH and nothing beside it.
///
/// ```swift
/// let file = try NewJournalFile(path: "new.db")     // throws if new.db exists
/// // … write a journal at file.loadingPath (a load, or a SQLiteEventStore), close it …
/// try file.keep()                                   // new.db appears, complete
/// // or file.abandon() (also when dropped): nothing is left
/// ```
///
/// Nothing is left behind however the work ends:
/// - **a failure**, or the file dropped without `keep()`: `abandon()` removes the file and its
///   `-journal`, `-wal` and `-shm`;
/// - **SIGINT or SIGTERM**: the signal handler (`InterruptCleanup`) removes them, writes one
///   line (`error: interrupted by SIGINT: nothing was kept, no journal was created at PATH`)
///   and the process exits with 130 or 143. During `keep()` a signal waits until the file has
///   its name (or failed to get it), so it never ends the process between the two;
/// - **SIGKILL** (or a power cut): the file stays, but its maker held a `flock` on it, which the
///   kernel released; the next `NewJournalFile` or `SQLiteEventStore` for PATH that finds no
///   journal there removes every such file whose lock is free (`removeLeftovers(of:)`), and
///   leaves those of a load still at work in another process.
package final class NewJournalFile {
    /// Where the journal appears when it is kept.
    package let path: String
    /// The file being written.
    package let loadingPath: String
    /// Holds the file's `flock` until it is kept or removed.
    private var lock: Int32?
    private var cleanup: InterruptCleanup?

    /// The side files SQLite may make beside a database file.
    static let sideSuffixes = ["-journal", "-wal", "-shm"]

    /// Creates the empty file `path.loading-XXXXXX` (mode 0600) for a journal at `path`, which
    /// must not exist, after removing what killed loads of `path` left.
    /// - Throws: `.invalidInput` when `path` exists or is not a file path, or a `-wal` or
    ///   `-journal` of an earlier database of that name does; `.io` when the file cannot be
    ///   created.
    package init(path: String) throws(EventStoreError) {
        guard Self.canStart(at: path) else {
            throw EventStoreError(
                code: .invalidInput,
                message: path.isEmpty || path == ":memory:"
                    ? "a new journal needs a file path, not \"\(path)\""
                    : "\(path) exists: only a new journal is made this way")
        }
        Self.removeLeftovers(of: path)
        try SQLiteEventStore.refuseLeftovers(of: path)
        self.path = path
        do {
            (loadingPath, lock) = try FileSystem.makeLockedUniqueFile(prefix: path + Self.infix)
        } catch {
            throw EventStoreError(code: .io, message: "cannot create the journal \(path): \(error)")
        }
        cleanup = InterruptCleanup(
            removing: [loadingPath] + Self.sideSuffixes.map { loadingPath + $0 },
            before: "error: interrupted by ",
            after: ": nothing was kept, no journal was created at \(path)\n")
    }

    deinit { abandon() }

    /// Whether `path` names a file that does not exist yet (not `:memory:`).
    package static func canStart(at path: String) -> Bool {
        !path.isEmpty && path != ":memory:" && !FileSystem.exists(path)
    }

    /// Gives the file the name `path`, if nothing has that name yet, then syncs its folder.
    /// Call it once the journal is complete and closed (its `-wal` emptied into the file).
    /// - Throws: `.conflict` when a file appeared at `path` meanwhile; `.invalidInput` when a
    ///   `-wal` or `-journal` did; `.io`: in each case nothing is at `path` and the file is
    ///   removed, except for an `.io` that says the journal is there but its folder could not
    ///   be synced.
    package func keep() throws(EventStoreError) {
        guard let cleanup else { throw Self.over(path) }
        do {
            guard !FileSystem.exists(loadingPath + "-wal") else {
                throw EventStoreError(code: .io, message: "\(loadingPath): the WAL was not removed at close")
            }
            try FileSystem.sync(loadingPath)
            try SQLiteEventStore.refuseLeftovers(of: path)
            try cleanup.keep { () throws(FileSystem.Failure) in
                try FileSystem.moveWithoutReplacing(loadingPath, to: path)
            }
        } catch let failure as FileSystem.Failure {
            abandon()
            if failure.alreadyExists {
                throw EventStoreError(
                    code: .conflict,
                    message: "a file appeared at \(path) while the journal was being written: nothing was written there"
                )
            }
            throw EventStoreError(code: .io, message: "finishing the journal \(path): \(failure)")
        } catch let error as EventStoreError {
            abandon()
            throw error
        } catch {
            abandon()
            throw EventStoreError(code: .io, message: "finishing the journal \(path): \(error)")
        }
        self.cleanup = nil
        if let lock { FileSystem.unlock(lock) }
        lock = nil
        do {
            try FileSystem.sync(FileSystem.directory(of: path), directory: true)
        } catch {
            throw EventStoreError(
                code: .io,
                message: "the journal is at \(path), but its folder could not be synced "
                    + "(\(error)): a power cut could lose its name")
        }
    }

    /// Removes the file and its side files: nothing is left. Idempotent; nothing once kept.
    package func abandon() {
        guard let cleanup else { return }
        for suffix in [""] + Self.sideSuffixes { FileSystem.remove(loadingPath + suffix) }
        // After the removal: a signal meanwhile still ends the process with its line.
        cleanup.disarm()
        self.cleanup = nil
        if let lock { FileSystem.unlock(lock) }
        lock = nil
    }

    /// Removes what makers of a journal at `path` that were killed left beside it: each
    /// `path.loading-XXXXXX` whose `flock` is free, with its side files, and side files whose
    /// file is gone. A file whose maker is alive (another process loading `path`) is left.
    /// Best effort: what cannot be removed (a read-only folder) stays.
    package static func removeLeftovers(of path: String) {
        guard !path.isEmpty, path != ":memory:" else { return }
        let folder = FileSystem.directory(of: path)
        let prefix = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "") + infix
        let names = ((try? FileSystem.names(in: folder)) ?? []).filter { $0.hasPrefix(prefix) }
        guard !names.isEmpty else { return }
        let files = Set(names.filter { $0.utf8.count == prefix.utf8.count + 6 })
        let inFolder = { (name: String) in folder + "/" + name }
        for name in files {
            let file = inFolder(name)
            guard let lock = FileSystem.lockIfAbandoned(file) else { continue }
            for suffix in sideSuffixes { FileSystem.remove(file + suffix) }
            FileSystem.remove(file)
            FileSystem.unlock(lock)
        }
        for name in names where !files.contains(name) {
            guard let suffix = sideSuffixes.first(where: { name.hasSuffix($0) }),
                name.utf8.count == prefix.utf8.count + 6 + suffix.utf8.count,
                !FileSystem.exists(inFolder(String(name.dropLast(suffix.count))))
            else { continue }
            FileSystem.remove(inFolder(name))
        }
    }

    /// What comes between the journal's path and the six random characters.
    static let infix = ".loading-"

    package static func over(_ path: String) -> EventStoreError {
        EventStoreError(code: .invalidInput, message: "the new journal \(path) is over (kept or abandoned)")
    }
}
