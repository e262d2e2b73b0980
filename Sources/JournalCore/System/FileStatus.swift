#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says about a file: its kind, permission bits and size.
///
/// ```swift
/// let key = try FileStatus.of(path)
/// guard key.permissions & 0o077 == 0 else { … }  // readable by others
/// ```
package struct FileStatus: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case regular
        case directory
        /// A socket, device, pipe or other special file.
        case other
    }

    package let kind: Kind
    /// The permission bits (`mode & 0o7777`).
    package let permissions: mode_t
    /// The size in bytes.
    package let size: Int64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        permissions = info.st_mode & 0o7777
        size = Int64(info.st_size)
    }

    /// The status of the file at `path` (following symbolic links); `Errno.noSuchFile` when
    /// nothing is there.
    package static func of(_ path: String) throws(Errno) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }
}
