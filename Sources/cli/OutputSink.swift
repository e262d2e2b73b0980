import JournalCore
import Glibc

/// A buffered writer to a file descriptor (stdout, stderr, a rejects file). Not thread-safe: a
/// command owns its sinks. Write errors are remembered and reported by ``flush()``.
final class OutputSink {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    private(set) var failure: Int32?
    /// True for a file this sink opened (and closes).
    private let ownsDescriptor: Bool

    init(descriptor: Int32, capacity: Int = 1 << 16, ownsDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.ownsDescriptor = ownsDescriptor
        buffer.reserveCapacity(capacity)
    }

    /// Opens (creating or truncating) a file for writing, readable and writable by its owner
    /// only (mode 0600, contract §4), whatever the umask, and also when the file existed with a
    /// wider mode: what it receives (rejected input, say) is nobody else's business.
    static func create(path: String) throws(CLIError) -> OutputSink {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw CLIError(.failure, "cannot create \(Help.printable(path)): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_mode & 0o7777 != 0o600 {
            guard fchmod(fd, 0o600) == 0 else {
                let reason = String(cString: strerror(errno))
                _ = Glibc.close(fd)
                throw CLIError(.failure, "cannot make \(Help.printable(path)) private (mode 0600): \(reason)")
            }
        }
        return OutputSink(descriptor: fd, ownsDescriptor: true)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flushBuffer() }
    }

    func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flushBuffer() }
    }

    /// Writes `text` and a line feed.
    func line(_ text: String = "") {
        write(text)
        write("\n")
    }

    /// Writes everything buffered; throws when any write failed.
    func flush() throws(CLIError) {
        flushBuffer()
        if let failure {
            throw CLIError(.failure, "cannot write output: \(String(cString: strerror(failure)))")
        }
    }

    /// Flushes and closes a descriptor this sink opened.
    func close() throws(CLIError) {
        try flush()
        if ownsDescriptor { FileDescriptor(rawValue: descriptor).close() }
    }

    private func flushBuffer() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        do {
            try FileDescriptor(rawValue: descriptor).writeAll(buffer)
        } catch {
            failure = error.rawValue
        }
    }
}
