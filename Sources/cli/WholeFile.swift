import Glibc

/// Small input files read whole: profiles, key and token files, checkpoints, bundles.
enum WholeFile {
    /// The bytes of the file at `path`; `what` names it in errors ("key file"). A file over
    /// `maxBytes` is refused rather than read on. Failures exit with `status` (1 unless the file
    /// is part of the command line's usage) and carry `hint`.
    static func read(_ path: String, what: String, maxBytes: Int, status: ExitStatus = .failure,
                     hint: String? = nil) throws(CLIError) -> [UInt8] {
        let shown = Help.printable(path)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIError(status, "cannot read the \(what) \(shown): \(String(cString: strerror(errno)))", hint: hint)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError(status, "cannot read the \(what) \(shown): \(String(cString: strerror(errno)))", hint: hint)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maxBytes else {
                throw CLIError(status, "the \(what) \(shown) is over \(maxBytes) bytes", hint: hint)
            }
        }
    }
}
