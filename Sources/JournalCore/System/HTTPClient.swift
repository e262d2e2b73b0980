import Glibc

/// A minimal HTTP/1.1 client for `http://` URLs: one request per connection (`Connection:
/// close`), a bounded answer, a deadline for the whole exchange. It is how the journal talks to
/// witnesses (`journal cosign`); there is no TLS: a witness beyond the machine is reached through
/// a proxy or tunnel that terminates it. The one place the package calls the socket API as a
/// client.
package enum HTTPClient {
    /// An answer: the status, the header fields (names lowercased; the last of a repeated one)
    /// and the body.
    package struct Response: Sendable, Equatable {
        package var status: Int
        package var headers: [String: String]
        package var body: [UInt8]
    }

    /// Why an exchange did not give an answer.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    /// An `http://HOST[:PORT][/PATH]` URL, split.
    package struct Endpoint: Sendable, Equatable {
        package var host: String
        package var port: UInt16
        package var path: String

        package init(parsing url: String) throws(Failure) {
            guard url.hasPrefix("http://") else {
                throw Failure("only http:// URLs are supported (for https, put a TLS proxy in front), not '\(url)'")
            }
            let rest = url.dropFirst("http://".count)
            let authority = rest.prefix(while: { $0 != "/" && $0 != "?" })
            var path = String(rest.dropFirst(authority.count))
            if path.isEmpty { path = "/" }
            guard !path.contains(" ") else { throw Failure("the URL's path has a space: '\(url)'") }
            var host = String(authority)
            var port: UInt16 = 80
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else { throw Failure("unclosed '[' in '\(url)'") }
                let after = host[host.index(after: close)...]
                if after.hasPrefix(":") {
                    guard let value = UInt16(after.dropFirst()) else { throw Failure("bad port in '\(url)'") }
                    port = value
                } else if !after.isEmpty {
                    throw Failure("bad host in '\(url)'")
                }
                host = String(host[host.index(after: host.startIndex)..<close])
            } else if let colon = host.lastIndex(of: ":") {
                guard let value = UInt16(host[host.index(after: colon)...]) else {
                    throw Failure("bad port in '\(url)'")
                }
                port = value
                host = String(host[..<colon])
            }
            guard !host.isEmpty, !host.contains("@") else { throw Failure("no host in '\(url)'") }
            self.host = host
            self.port = port
            self.path = path
        }

        /// `HOST:PORT` for the Host header.
        var hostHeader: String { (host.contains(":") ? "[\(host)]" : host) + (port == 80 ? "" : ":\(port)") }
    }

    /// Sends one request and reads its answer, within `timeoutSeconds` overall.
    /// - Parameter maxResponseBytes: a longer answer is a failure.
    package static func exchange(
        method: String, url: String, headers: [(String, String)] = [], body: [UInt8] = [],
        timeoutSeconds: Double = 10, maxResponseBytes: Int = 1 << 20
    ) throws(Failure) -> Response {
        let endpoint = try Endpoint(parsing: url)
        let deadline = SystemClock.monotonicNanoseconds() + Int64(timeoutSeconds * 1e9)
        let socket = try connect(endpoint, deadline: deadline)
        defer { _ = close(socket) }
        var head = "\(method) \(endpoint.path) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        for (name, value) in headers {
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw Failure("a header has a line break")
            }
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        try send(socket, Array(head.utf8) + body, deadline: deadline)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            try wait(socket, for: Int16(POLLIN), deadline: deadline)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure("receiving from \(endpoint.hostHeader): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            received += buffer[..<count]
            guard received.count <= maxResponseBytes else {
                throw Failure("the answer of \(endpoint.hostHeader) is over \(maxResponseBytes) bytes")
            }
            if let response = try? parse(received, complete: false) { return response }
        }
        return try parse(received, complete: true)
    }

    /// A response from its bytes; with `complete: false`, only once its length shows it whole.
    static func parse(_ bytes: [UInt8], complete: Bool) throws(Failure) -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.firstRange(of: separator) else { throw Failure("the answer has no complete header") }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw Failure("the answer does not start with an HTTP/1.x status line")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces()
        }
        var body = Array(bytes[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try dechunk(body)
        } else if let text = headers["content-length"], let length = Int(text) {
            guard body.count >= length else { throw Failure("the answer's body is shorter than its Content-Length") }
            body = Array(body.prefix(length))
        } else if !complete {
            throw Failure("the answer is not complete yet")
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// The body of a chunked answer; fails until the last chunk is in.
    private static func dechunk(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { throw Failure("a chunk is cut") }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.prefix(while: { $0 != ";" }).trimmingSpaces(), radix: 16), size >= 0 else {
                throw Failure("a chunk size is not hexadecimal")
            }
            index = lineEnd.upperBound
            if size == 0 { return body }
            guard bytes.count >= index + size + 2 else { throw Failure("a chunk is cut") }
            body += bytes[index..<(index + size)]
            index += size + 2
        }
    }

    private static func connect(_ endpoint: Endpoint, deadline: Int64) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw Failure("cannot resolve \(endpoint.host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(
                info.pointee.ai_family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { continue }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                do {
                    try wait(fd, for: Int16(POLLOUT), deadline: deadline)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 { return fd }
                    reason = String(cString: strerror(error))
                } catch {
                    reason = error.description
                }
            } else {
                reason = String(cString: strerror(errno))
            }
            _ = close(fd)
        }
        throw Failure("cannot connect to \(endpoint.hostHeader): \(reason)")
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8], deadline: Int64) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            try wait(fd, for: Int16(POLLOUT), deadline: deadline)
            let count = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure("sending: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    /// Waits until `fd` is ready for `events`, or fails at the deadline.
    private static func wait(_ fd: Int32, for events: Int16, deadline: Int64) throws(Failure) {
        while true {
            let left = deadline - SystemClock.monotonicNanoseconds()
            guard left > 0 else { throw Failure("no answer within the time allowed") }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left / 1_000_000 + 1, Int64(Int32.max))))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw Failure("poll: \(String(cString: strerror(errno)))") }
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
