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

    /// `status` 0: the connection ended before an answer was queued. The line is written as
    /// bytes, in the key order of the documented format: one is written per request, on the
    /// event loop.
    func record(
        method: String, route: String, status: Int, bytes: Int, nanoseconds: Int64, token: String?,
        completed: Bool
    ) {
        var line: [UInt8] = []
        line.reserveCapacity(192)
        line.append(contentsOf: #"{"time":""#.utf8)
        now().write(into: &line)
        line.append(contentsOf: #"","method":"#.utf8)
        let plainMethod = method.utf8.count <= 80 && method.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
        JSONWriter.writeString(plainMethod ? method : TextRendering.printable(method), into: &line)
        line.append(contentsOf: #","route":"#.utf8)
        JSONWriter.writeString(route, into: &line)
        line.append(contentsOf: #","status":"#.utf8)
        line.append(contentsOf: String(status).utf8)
        line.append(contentsOf: #","bytes":"#.utf8)
        line.append(contentsOf: String(bytes).utf8)
        let tenths = nanoseconds / 100_000
        line.append(contentsOf: #","durationMs":"#.utf8)
        line.append(contentsOf: "\(tenths / 10).\(tenths % 10)".utf8)
        line.append(contentsOf: #","token":"#.utf8)
        if let token { JSONWriter.writeString(token, into: &line) } else { line.append(contentsOf: "null".utf8) }
        if !completed { line.append(contentsOf: #","completed":false"#.utf8) }
        line.append(contentsOf: "}\n".utf8)
        write(line)
    }

    /// One JSON line of the server's own (a checkpoint round of `--cosign-with`).
    func write(_ object: JSONObject) {
        var line = Array(JSONWriter.string(.object(object)).utf8)
        line.append(0x0A)
        write(line)
    }

    private func write(_ line: [UInt8]) {
        descriptor.withLock { descriptor in
            // A closed stderr does not stop the server.
            try? FileDescriptor(rawValue: descriptor).writeAll(line)
        }
    }
}
