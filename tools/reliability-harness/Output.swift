import Glibc
import Synchronization

/// Unbuffered, line-atomic output: a line is on the pipe before the next append starts, so a
/// test that kills this process knows every batch that was acknowledged.
enum Output {
    private static let lock = Mutex<Void>(())

    static func line(_ text: String) { write(1, text + "\n") }
    static func error(_ text: String) { write(2, text + "\n") }

    private static func write(_ descriptor: Int32, _ text: String) {
        lock.withLock { _ in
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { raw in
                    Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
            bytes.removeAll()
        }
    }
}
