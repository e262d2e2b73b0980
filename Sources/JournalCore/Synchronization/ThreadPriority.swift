#if canImport(Glibc)
    import Glibc
#endif

package enum ThreadPriority {
    static func tid() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &buffer, 63)
        guard n > 0 else { return 0 }
        let text = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int32(text.split(separator: "/").last ?? "") ?? 0
    }

    package static func lowerCurrent(env name: String) {
        #if canImport(Glibc)
            guard let value = getenv(name).flatMap({ Int32(String(cString: $0)) }), value != 0 else { return }
            errno = 0
            let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid()), current + value)
        #endif
    }
}
