#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations of the store (`SQLiteJournalLoad`, `NewJournalFile`, mirrors) and of the
/// commands that check a path: the only place they call the C library on files (SQLite does
/// everything else). Each failure carries `errno`'s text and the path.
package enum FileSystem {
    package struct Failure: Error, CustomStringConvertible {
        package var operation: String
        package var path: String
        package var errorNumber: Int32

        package init(operation: String, path: String, errorNumber: Int32) {
            self.operation = operation
            self.path = path
            self.errorNumber = errorNumber
        }

        package var description: String { "\(operation) \(path): \(String(cString: strerror(errorNumber)))" }
        package var alreadyExists: Bool { errorNumber == EEXIST }
    }

    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates a new empty file named `prefix` + six random characters (`mkstemp`) and returns
    /// its path.
    package static func makeUniqueFile(prefix: String) throws(Failure) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(operation: "creating", path: prefix + "XXXXXX", errorNumber: errno) }
        close(descriptor)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Creates a new empty file named `prefix` + six random characters (`mkstemp`, mode 0600)
    /// and holds an exclusive `flock` on it, which tells `lockIfAbandoned` that its maker is
    /// alive. Returns its path and the descriptor that holds the lock (closing it releases it).
    package static func makeLockedUniqueFile(prefix: String) throws(Failure) -> (path: String, lock: Int32) {
        while true {
            var template = Array((prefix + "XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                throw Failure(operation: "creating", path: prefix + "XXXXXX", errorNumber: errno)
            }
            let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let failure = errno
                    close(descriptor)
                    unlink(path)
                    throw Failure(operation: "locking", path: path, errorNumber: failure)
                }
            }
            // Another process's `lockIfAbandoned` may have removed the file between its creation
            // and the lock: then make another.
            if names(descriptor, path) { return (path, descriptor) }
            close(descriptor)
        }
    }

    /// Opens the file at `path` and takes its exclusive `flock` without waiting: the
    /// descriptor that holds it, or nil when another process holds it (the file's maker is
    /// alive), or the file cannot be opened.
    package static func lockIfAbandoned(_ path: String) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, names(descriptor, path) else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Releases a lock from `makeLockedUniqueFile` or `lockIfAbandoned`.
    package static func unlock(_ descriptor: Int32) {
        close(descriptor)
    }

    /// True when `path` names the file open as `descriptor` (same device and inode).
    private static func names(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Flushes a file (or, given a directory, its entries) to the disk.
    package static func sync(_ path: String, directory: Bool = false) throws(Failure) {
        let descriptor = open(path, directory ? O_RDONLY | O_DIRECTORY : O_RDONLY)
        guard descriptor >= 0 else { throw Failure(operation: "opening", path: path, errorNumber: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "syncing", path: path, errorNumber: errno) }
    }

    /// Gives `source` the name `destination` only if nothing has that name yet (`link`, which
    /// refuses an existing name atomically, then `unlink` of the old name). On a file system
    /// without hard links, a check then `rename`: a file created between the two is replaced.
    package static func moveWithoutReplacing(_ source: String, to destination: String) throws(Failure) {
        if link(source, destination) == 0 {
            unlink(source)
            return
        }
        let failure = errno
        guard failure == EPERM || failure == EOPNOTSUPP || failure == ENOSYS else {
            throw Failure(operation: "linking \(source) to", path: destination, errorNumber: failure)
        }
        guard !exists(destination) else {
            throw Failure(operation: "renaming \(source) to", path: destination, errorNumber: EEXIST)
        }
        guard rename(source, destination) == 0 else {
            throw Failure(operation: "renaming \(source) to", path: destination, errorNumber: errno)
        }
    }

    /// Removes a file; a missing file is not an error.
    package static func remove(_ path: String) {
        unlink(path)
    }

    /// A file that has no name: created beside `prefix` (`mkstemp`, mode 0600), unlinked at
    /// once, gone when closed, even if the process is killed. Read and written at offsets.
    package final class AnonymousFile {
        private let descriptor: Int32
        package let path: String

        package init(beside prefix: String) throws(Failure) {
            var template = Array((prefix + "XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else {
                throw Failure(operation: "creating", path: prefix + "XXXXXX", errorNumber: errno)
            }
            path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            unlink(path)
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// Writes all of `bytes` at `offset`.
        package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Failure) {
            try transfer(bytes.count, "writing") { done in
                pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
        }

        /// Fills `buffer` from `offset`; fails if the file ends first.
        package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Failure) {
            try transfer(buffer.count, "reading") { done in
                pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            }
        }

        /// Calls `step` (a `pwrite` or `pread` from `done` bytes on) until `count` bytes are
        /// done, again after an interruption; no progress (end of file) is an error.
        private func transfer(_ count: Int, _ operation: String, _ step: (_ done: Int) -> Int) throws(Failure) {
            var done = 0
            while done < count {
                let moved = step(done)
                if moved < 0 && errno == EINTR { continue }
                guard moved > 0 else {
                    throw Failure(operation: operation, path: path, errorNumber: moved < 0 ? errno : EIO)
                }
                done += moved
            }
        }
    }

    /// What is at a path, for messages that say what is wrong with a `--db` before SQLite's
    /// generic "unable to open database file" would.
    package enum Entry: Equatable {
        case missing
        case file
        case folder
        /// A socket, device or other special file.
        case other
        /// The path cannot be examined (`errno`: a component is not a folder, no permission…).
        case unreachable(errorNumber: Int32)
    }

    package static func entry(at path: String) -> Entry {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT ? .missing : .unreachable(errorNumber: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// True when this process may write `path` (`access(W_OK)`: the real user's permission, and a
    /// read-only mount).
    package static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// True when this process may run the file at `path` (`access(X_OK)`).
    package static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// Gives the file or folder at `path` exactly `permissions` (`chmod`); false when it cannot.
    @discardableResult
    package static func setPermissions(_ path: String, _ permissions: UInt32) -> Bool {
        chmod(path, mode_t(permissions)) == 0
    }

    /// Gives the file or folder at `path` to `user` and `group` (`chown`); false when it cannot.
    @discardableResult
    package static func setOwner(_ path: String, user: UInt32, group: UInt32) -> Bool {
        chown(path, uid_t(user), gid_t(group)) == 0
    }

    /// The folder for temporary files: `$TMPDIR`, else `/tmp`.
    package static var temporaryDirectory: String {
        guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
        return String(cString: value)
    }

    /// The text of an `errno` value.
    package static func describe(errorNumber: Int32) -> String {
        String(cString: strerror(errorNumber))
    }

    /// The directory part of a path ("." for a bare file name).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
