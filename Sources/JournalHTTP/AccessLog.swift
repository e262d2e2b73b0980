import JournalApp
import JournalCore
import Synchronization

/// One JSON object per request on a descriptor (stderr): time, method, route pattern, status,
/// body bytes, duration, token name. Never the token, a header or a body: the path itself is
/// not logged either (a stream name is a transaction id), only the route it matched.
package final class AccessLog: Sendable {
    /// The descriptor, held while a line is written so that lines never interleave.
    private let descriptor: Mutex<Int32>
    private let now: @Sendable () -> Timestamp

    package init(descriptor: Int32, now: @escaping @Sendable () -> Timestamp) {
        self.descriptor = Mutex(descriptor)
        self.now = now
    }

    /// `status` 0: the connection ended before an answer was queued.
    func record(
        method: String, route: String, status: Int, bytes: Int, nanoseconds: Int64, token: String?,
        completed: Bool
    ) {
        var object = JSONObject()
        object["time"] = .string(now().description)
        object["method"] = .string(TextRendering.printable(method))
        object["route"] = .string(route)
        object["status"] = .number(JSONNumber(status))
        object["bytes"] = .number(JSONNumber(bytes))
        let tenths = nanoseconds / 100_000
        object["durationMs"] = .number(JSONNumber(uncheckedText: "\(tenths / 10).\(tenths % 10)"))
        object["token"] = token.map { .string($0) } ?? .null
        if !completed { object["completed"] = .bool(false) }
        write(object)
    }

    /// One JSON line of the server's own (a checkpoint round of `--cosign-with`).
    func write(_ object: JSONObject) {
        var line = Array(JSONWriter.string(.object(object)).utf8)
        line.append(0x0A)
        descriptor.withLock { descriptor in
            // A closed stderr does not stop the server.
            try? FileDescriptor(rawValue: descriptor).writeAll(line)
        }
    }
}
