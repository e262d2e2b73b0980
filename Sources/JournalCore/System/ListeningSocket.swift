#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket bound to an IP address and listening (close-on-exec, `SO_REUSEADDR`, a backlog
/// of 1,024), the port the kernel chose when asked for port 0.
package enum ListeningSocket {
    /// The address family of a textual IP address.
    package enum Family: Sendable {
        case ipv4, ipv6

        fileprivate var constant: Int32 {
            switch self {
            case .ipv4: AF_INET
            case .ipv6: AF_INET6
            }
        }
    }

    /// Which call failed, with the C library's error.
    package struct Failure: Error, Sendable {
        /// `socket`, `bind` or `listen`.
        package var call: String
        package var errno: Errno
    }

    /// The family of `host` (a dotted IPv4 or an IPv6 address); nil for anything else.
    package static func family(of host: String) -> Family? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return .ipv4 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return .ipv6 }
        return nil
    }

    /// 127.0.0.0/8 or ::1.
    package static func isLoopback(_ host: String) -> Bool {
        switch family(of: host) {
        case .ipv4: return host.hasPrefix("127.")
        case .ipv6:
            var address = in6_addr()
            guard inet_pton(AF_INET6, host, &address) == 1 else { return false }
            return withUnsafeBytes(of: &address) { raw in raw.prefix(15).allSatisfy { $0 == 0 } && raw[15] == 1 }
        case nil: return false
        }
    }

    /// Binds `host:port` and listens; returns the socket and the port actually bound.
    package static func open(host: String, port: UInt16) throws(Failure) -> (socket: FileDescriptor, port: UInt16) {
        let family = Self.family(of: host)?.constant ?? AF_INET
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        let fd = socket(family, type, 0)
        guard fd >= 0 else { throw Failure(call: "socket", errno: .current) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        var length: socklen_t
        // unsafe: sockaddr_in / sockaddr_in6 laid over a sockaddr_storage, which is large enough for both.
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            _ = inet_pton(AF_INET, host, &address.sin_addr)
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { raw in raw.storeBytes(of: address, as: sockaddr_in.self) }
        } else {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { raw in raw.storeBytes(of: address, as: sockaddr_in6.self) }
        }
        let bound = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = Failure(call: "bind", errno: .current)
            FileDescriptor(rawValue: fd).close()
            throw error
        }
        guard listen(fd, 1024) == 0 else {
            let error = Failure(call: "listen", errno: .current)
            FileDescriptor(rawValue: fd).close()
            throw error
        }
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        let actualPort = withUnsafeBytes(of: &actual) { raw in
            family == AF_INET
                ? UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
        }
        return (FileDescriptor(rawValue: fd), actualPort)
    }
}
