import JournalCore

/// The file reads of `MirrorReader`, through JournalCore's system layer: the evidence library
/// reads a mirror's folder without the store's `FileSystem`. A failure names the operation, the
/// path and `errno`'s text, as the store's file errors do.
enum MirrorFile {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var errorNumber: Errno
        var description: String { "\(operation) \(path): \(errorNumber)" }
        /// Nothing at the path (`ENOENT`).
        var isMissing: Bool { errorNumber == .noSuchFile }
    }

    /// True when something is at `path` (following symbolic links).
    static func exists(_ path: String) -> Bool {
        (try? FileStatus.of(path)) != nil
    }

    /// True when `path` is a folder.
    static func isFolder(_ path: String) -> Bool {
        (try? FileStatus.of(path))?.kind == .directory
    }

    /// The whole file at `path`, at most `maxBytes` of it (a longer file is an error).
    static func read(_ path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw Failure(operation: "opening", path: path, errorNumber: error)
        }
        defer { file.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let read = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try file.read(into: buffer) }
            }
            let count: Int
            switch read {
            case .success(let done): count = done
            case .failure(let error): throw Failure(operation: "reading", path: path, errorNumber: error)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maxBytes else {
                throw Failure(
                    operation: "reading (longer than \(maxBytes) bytes)", path: path, errorNumber: .fileTooLarge)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
