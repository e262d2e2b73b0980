import Glibc
import JournalCore

/// One JSON object per request on a descriptor (stderr): time, method, route pattern, status,
/// body bytes, duration, token name. Never the token, a header or a body: the path itself is
/// not logged either (a stream name is a transaction id), only the route it matched.
final class AccessLog: @unchecked Sendable {
    private let descriptor: Int32
    private let now: @Sendable () -> Timestamp
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(descriptor: Int32, now: @escaping @Sendable () -> Timestamp) {
        self.descriptor = descriptor
        self.now = now
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// `status` 0: the connection ended before an answer was queued.
    func record(method: String, route: String, status: Int, bytes: Int, nanoseconds: Int64, token: String?,
                completed: Bool) {
        var object = JSONObject()
        object["time"] = .string(now().description)
        object["method"] = .string(Help.printable(method))
        object["route"] = .string(route)
        object["status"] = .number(JSONNumber(status))
        object["bytes"] = .number(JSONNumber(bytes))
        let tenths = nanoseconds / 100_000
        object["durationMs"] = .number(JSONNumber(uncheckedText: "\(tenths / 10).\(tenths % 10)"))
        object["token"] = token.map { .string($0) } ?? .null
        if !completed { object["completed"] = .bool(false) }
        var line = Array(JSONWriter.string(.object(object)).utf8)
        line.append(0x0A)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }  // a closed stderr does not stop the server
                offset += written
            }
        }
    }
}
