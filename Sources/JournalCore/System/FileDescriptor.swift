#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor: the package's one wrapper of `open`, `read`, `write` and `close`, in
/// the manner of swift-system's `FileDescriptor`. Each call retries on `EINTR` and reports other
/// failures as an `Errno`; the caller adds the path and what it was doing.
///
/// ```swift
/// let file = try FileDescriptor.open("/dev/urandom", .readOnly)
/// defer { file.close() }
/// let count = try file.read(into: buffer)
/// ```
package struct FileDescriptor: Sendable, Hashable {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let standardInput = FileDescriptor(rawValue: 0)
    package static let standardOutput = FileDescriptor(rawValue: 1)
    package static let standardError = FileDescriptor(rawValue: 2)

    package enum AccessMode: Sendable {
        case readOnly, writeOnly, readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// How `open` treats the file at the path.
    package struct OpenOptions: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// Create the file (with `permissions`) when it does not exist.
        package static let create = OpenOptions(rawValue: O_CREAT)
        /// With `create`: fail with `Errno.fileExists` when the name is taken.
        package static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// Empty an existing file.
        package static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// Every write goes to the end of the file.
        package static let append = OpenOptions(rawValue: O_APPEND)
        /// Fail unless the path is a directory.
        package static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// Opens `path` (close-on-exec); a file it creates gets `permissions`, less the umask.
    ///
    /// ```swift
    /// let key = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive], permissions: 0o600)
    /// ```
    package static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions,
        permissions: mode_t = 0o600
    ) throws(Errno) -> FileDescriptor {
        try open(path, mode, extraFlags: options.rawValue, permissions: permissions)
    }

    /// Opens `path` (close-on-exec); `extraFlags` adds `O_CREAT`, `O_EXCL`, `O_DIRECTORY`…
    package static func open(
        _ path: String, _ mode: AccessMode, extraFlags: Int32 = 0,
        permissions: mode_t = 0o600
    ) throws(Errno) -> FileDescriptor {
        while true {
            #if canImport(Glibc)
                let descriptor = Glibc.open(path, mode.flags | extraFlags | O_CLOEXEC, permissions)
            #else
                let descriptor = Darwin.open(path, mode.flags | extraFlags | O_CLOEXEC, permissions)
            #endif
            if descriptor >= 0 { return FileDescriptor(rawValue: descriptor) }
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
    }

    /// Reads at most `buffer.count` bytes; 0 at the end of the file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            #if canImport(Glibc)
                let count = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            #else
                let count = Darwin.read(rawValue, buffer.baseAddress, buffer.count)
            #endif
            if count >= 0 { return count }
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
    }

    /// Fills `buffer` whole, or throws (`Errno.endOfFile` when the file ends first).
    package func readExactly(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) {
        var filled = 0
        while filled < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            guard count > 0 else { throw Errno.endOfFile }
            filled += count
        }
    }

    /// Writes every byte of `bytes`, however many `write` calls that takes.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
                let written = Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            #else
                let written = Darwin.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if written > 0 {
                offset += written
                continue
            }
            let failure = written == 0 ? Errno.ioError : Errno.current
            if failure != .interrupted { throw failure }
        }
    }

    /// Writes every byte of `bytes`.
    package func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try writeAll(raw) }
        }
        try result.get()
    }

    /// Flushes the file (or a directory's entries) to the disk.
    package func sync() throws(Errno) {
        guard fsync(rawValue) == 0 else { throw Errno.current }
    }

    /// Flushes the file's data, and the metadata needed to read it back, to the disk (`fdatasync`).
    package func dataSync() throws(Errno) {
        guard fdatasync(rawValue) == 0 else { throw Errno.current }
    }

    /// What the descriptor refers to (`fstat`).
    package func status() throws(Errno) -> FileStatus {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// Sets the file's permission bits (`fchmod`), whatever the umask.
    package func setPermissions(_ permissions: mode_t) throws(Errno) {
        guard fchmod(rawValue, permissions) == 0 else { throw Errno.current }
    }

    /// Waits for an exclusive `flock` on the file, held until the descriptor is closed.
    package func lockExclusively() throws(Errno) {
        while flock(rawValue, LOCK_EX) != 0 {
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
    }

    /// The current read/write offset (`lseek(fd, 0, SEEK_CUR)`); nil for a pipe or a terminal.
    package func currentOffset() -> Int64? {
        let offset = lseek(rawValue, 0, SEEK_CUR)
        return offset < 0 ? nil : Int64(offset)
    }

    /// Waits until the descriptor has something to read, or `milliseconds` pass (`poll`): true
    /// when it is readable, false on the timeout or an interruption.
    package func waitReadable(milliseconds: Int32) throws(Errno) -> Bool {
        var descriptor = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 {
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
        return ready > 0
    }

    /// True when the descriptor is a terminal (`isatty`).
    package var isTerminal: Bool { isatty(rawValue) == 1 }

    /// Closes the descriptor; a failure to close is not reported (the data is written or not by then).
    package func close() {
        #if canImport(Glibc)
            _ = Glibc.close(rawValue)
        #else
            _ = Darwin.close(rawValue)
        #endif
    }
}
