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

    /// Opens (creating or truncating) a file for writing.
    static func create(path: String) throws(CLIError) -> OutputSink {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CLIError(.failure, "cannot create \(path): \(String(cString: strerror(errno)))")
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
        if ownsDescriptor { _ = Glibc.close(descriptor) }
    }

    private func flushBuffer() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
    }
}
