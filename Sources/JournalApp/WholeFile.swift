import JournalCore

/// Small input files read whole: profiles, key and token files, checkpoints, bundles.
package enum WholeFile {
    /// The bytes of the file at `path`; `what` names it in errors ("key file"). A file over
    /// `maxBytes` is refused rather than read on. Failures exit with `status` (1 unless the file
    /// is part of the command line's usage) and carry `hint`.
    package static func read(
        _ path: String, what: String, maxBytes: Int, status: ExitStatus = .failure,
        hint: String? = nil
    ) throws(CLIError) -> [UInt8] {
        let shown = TextRendering.printable(path)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw CLIError(status, "cannot read the \(what) \(shown): \(error)", hint: hint)
        }
        defer { file.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read: Result<Int, Errno> = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try file.read(into: raw) }
            }
            let count: Int
            switch read {
            case let .success(read): count = read
            case let .failure(error): throw CLIError(status, "cannot read the \(what) \(shown): \(error)", hint: hint)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maxBytes else {
                throw CLIError(status, "the \(what) \(shown) is over \(maxBytes) bytes", hint: hint)
            }
        }
    }

    /// At most the first `count` bytes of the file at `path`; empty when it cannot be read (the
    /// caller reads it again and reports why).
    package static func prefix(_ path: String, count: Int) -> [UInt8] {
        guard let file = try? FileDescriptor.open(path, .readOnly) else { return [] }
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: count)
        let read: Result<Int, Errno> = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try file.read(into: raw) }
        }
        guard case let .success(got) = read else { return [] }
        return Array(bytes.prefix(got))
    }
}
