import Foundation
import Testing

/// A `journal serve` process on a free loopback port, started as a user would; its access log
/// goes to a file (a full stderr pipe would block the server).
final class ServeProcess {
    let process: Process
    let port: UInt16
    let url: String
    let logPath: String

    /// Starts `journal serve --listen 127.0.0.1:0 ARGS --db <db>` (or another server command,
    /// `journal witness`) and waits for its `listening on` line.
    init(_ runner: JournalRunner, _ arguments: [String] = [], db: String? = nil, command: String = "serve") throws {
        process = Process()
        process.executableURL = JournalRunner.executable
        process.arguments = [command, "--listen", "127.0.0.1:0"] + arguments + ["--db", db ?? runner.database]
        process.currentDirectoryURL = runner.folder
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "JOURNAL_DB")
        process.environment = environment
        logPath = runner.path("\(command)-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var text = Data()
        while !text.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text.append(chunk)
        }
        let line = String(decoding: text, as: UTF8.self)
        guard line.hasPrefix("listening on http://127.0.0.1:"),
            let port = UInt16(line.dropFirst("listening on http://127.0.0.1:".count).prefix(while: \.isNumber))
        else {
            process.terminate()
            process.waitUntilExit()
            throw ServeTestError(
                "no 'listening on' line: \(line) "
                    + "\(String(describing: try? String(contentsOfFile: logPath, encoding: .utf8)))"
            )
        }
        self.port = port
        url = "http://127.0.0.1:\(port)"
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Sends `signal` and waits for the exit status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// One request on its own connection (`Connection: close`).
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
        timeoutSeconds: Int = 70
    ) throws -> RawHTTP.Reply {
        try RawHTTP.request(
            port: port, method, path, headers: headers, body: body.map { Array($0.utf8) },
            timeoutSeconds: timeoutSeconds)
    }

    /// Waits (up to 10 s) until `count` requests besides a `/metrics` scrape are being served:
    /// a long-poll started on another thread has reached the server.
    func waitUntilInFlight(_ count: Int) throws {
        for _ in 0..<200 {
            if try request("GET", "/metrics").lines.contains("journal_http_requests_in_flight \(count + 1)") { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw ServeTestError("never \(count) requests in flight")
    }

    /// `POST /v1/events` with NDJSON lines.
    func append(_ lines: [String], headers: [String: String] = [:]) throws -> RawHTTP.Reply {
        try request(
            "POST", "/v1/events", headers: ["Content-Type": "application/x-ndjson"].merging(headers) { $1 },
            body: lines.joined(separator: "\n") + "\n")
    }
}

struct ServeTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A minimal HTTP/1.1 client over a raw socket: the tests need to send what no client library
/// would (broken request lines, lying Content-Length, a body that stops).
enum RawHTTP {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        }
        var lines: [String] { body.split(separator: "\n").map(String.init) }
    }

    static func connect(port: UInt16, timeoutSeconds: Int = 70) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeTestError("socket: \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw ServeTestError("connect: \(errno)")
        }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Everything until the server closes (or the receive timeout).
    static func receiveAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            out += buffer[0..<count]
        }
        return out
    }

    static func request(
        port: UInt16, _ method: String, _ path: String, headers: [String: String] = [:],
        body: [UInt8]? = nil, timeoutSeconds: Int = 70
    ) throws -> Reply {
        let fd = try connect(port: port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        _ = send(fd, Array(head.utf8) + (body ?? []))
        guard let reply = parse(receiveAll(fd)) else { throw ServeTestError("no HTTP answer to \(method) \(path)") }
        return reply
    }

    static func parse(_ bytes: [UInt8]) -> Reply? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        let headLines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        let statusParts = headLines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in headLines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: String(text[end.upperBound...]))
    }
}
