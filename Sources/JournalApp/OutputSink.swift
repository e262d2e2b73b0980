import JournalCore

/// A buffered writer to a file descriptor (stdout, stderr, a rejects file). Not thread-safe: a
/// command owns its sinks. Write errors are remembered and reported by ``flush()``.
package final class OutputSink {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    private(set) var failure: Errno?
    /// True for a file this sink opened (and closes).
    private let ownsDescriptor: Bool

    package init(descriptor: Int32, capacity: Int = 1 << 16, ownsDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.ownsDescriptor = ownsDescriptor
        buffer.reserveCapacity(capacity)
    }

    /// Opens (creating or truncating) a file for writing, readable and writable by its owner
    /// only (mode 0600, spec §4), whatever the umask, and also when the file existed with a
    /// wider mode: what it receives (rejected input, say) is nobody else's business.
    package static func create(path: String) throws(CLIError) -> OutputSink {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], permissions: 0o600)
        } catch {
            throw CLIError(.failure, "cannot create \(TextRendering.printable(path)): \(error)")
        }
        if let status = try? file.status(), status.kind == .regular, status.permissions != 0o600 {
            do {
                try file.setPermissions(0o600)
            } catch {
                file.close()
                throw CLIError(.failure, "cannot make \(TextRendering.printable(path)) private (mode 0600): \(error)")
            }
        }
        return OutputSink(descriptor: file.rawValue, ownsDescriptor: true)
    }

    /// Writes `text` to the file at `path`, created or truncated as by `create(path:)`.
    package static func writeFile(_ path: String, _ text: String) throws(CLIError) {
        let sink = try create(path: path)
        sink.write(text)
        try sink.close()
    }

    package func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flushBuffer() }
    }

    package func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flushBuffer() }
    }

    /// Writes `text` and a line feed.
    package func line(_ text: String = "") {
        write(text)
        write("\n")
    }

    /// Writes everything buffered; throws when any write failed.
    package func flush() throws(CLIError) {
        flushBuffer()
        if let failure {
            throw CLIError(.failure, "cannot write output: \(failure)")
        }
    }

    /// Flushes and closes a descriptor this sink opened.
    package func close() throws(CLIError) {
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
            failure = error
        }
    }
}
