#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The file operations of a mirror (`MirrorPublisher`, `MirrorReader`): folders, whole files
// written under a temporary name and renamed into place, and the syncs that order them.
extension FileSystem {
    /// Creates `path` and every missing folder above it, each with `permissions` (less nothing:
    /// set explicitly). An existing folder is fine.
    package static func makeDirectories(_ path: String, permissions: UInt32 = 0o755) throws(Failure) {
        guard entry(at: path) != .folder else { return }
        let parent = directory(of: path)
        if parent != path && parent != "." && parent != "/" { try makeDirectories(parent, permissions: permissions) }
        if mkdir(path, permissions) != 0 {
            let failure = errno
            guard failure == EEXIST, entry(at: path) == .folder else {
                throw Failure(operation: "creating the folder", path: path, errorNumber: failure)
            }
            return
        }
        chmod(path, permissions)
    }

    /// Creates the file `path` (which must not exist) holding `bytes`, with exactly
    /// `permissions` whatever the umask; `sync` flushes it to the disk before it is closed.
    package static func writeNewFile(_ path: String, _ bytes: [UInt8], permissions: UInt32, sync: Bool) throws(Failure)
    {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw Failure(operation: "creating", path: path, errorNumber: errno) }
        defer { close(descriptor) }
        guard fchmod(descriptor, permissions) == 0 else {
            throw Failure(operation: "setting the mode of", path: path, errorNumber: errno)
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw Failure(operation: "writing", path: path, errorNumber: written < 0 ? errno : EIO)
            }
            offset += written
        }
        if sync, fsync(descriptor) != 0 { throw Failure(operation: "syncing", path: path, errorNumber: errno) }
    }

    /// Gives `source` the name `destination`, replacing what had it, atomically (`rename`).
    package static func renameReplacing(_ source: String, to destination: String) throws(Failure) {
        #if canImport(Glibc)
            let renamed = Glibc.rename(source, destination) == 0
        #else
            let renamed = Darwin.rename(source, destination) == 0
        #endif
        guard renamed else {
            throw Failure(operation: "renaming \(source) to", path: destination, errorNumber: errno)
        }
    }

    /// The whole file at `path`, at most `maxBytes` of it (a longer file is an error).
    package static func readFile(_ path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "opening", path: path, errorNumber: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Failure(operation: "reading", path: path, errorNumber: errno) }
            if count == 0 { return bytes }
            guard bytes.count + count <= maxBytes else {
                throw Failure(operation: "reading (longer than \(maxBytes) bytes)", path: path, errorNumber: EFBIG)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The names in the folder `path` (without `.` and `..`).
    package static func names(in path: String) throws(Failure) -> [String] {
        guard let folder = opendir(path) else { throw Failure(operation: "listing", path: path, errorNumber: errno) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the folder `path` and the files in it (it holds no folders); a missing folder
    /// is not an error.
    package static func removeFlatDirectory(_ path: String) {
        for name in (try? names(in: path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }

    /// A new folder `prefix` + six random characters (`mkdtemp`, mode 0700).
    package static func makeTemporaryDirectory(prefix: String) throws(Failure) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw Failure(operation: "creating", path: prefix + "XXXXXX", errorNumber: errno) }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

extension FileSystem.Failure {
    /// Nothing at the path (`ENOENT`).
    package var isMissing: Bool { errorNumber == ENOENT }
}
