import EventStore
import JournalCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Multiple processes")
struct MultiProcessTests {
    /// The `store-stress` helper built next to the test binary.
    static var helper: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        var directory = exe
        while let slash = directory.lastIndex(of: "/") {
            directory = String(directory[..<slash])
            if access(directory + "/store-stress", X_OK) == 0 { return directory + "/store-stress" }
        }
        return "store-stress (not found near \(exe))"
    }

    private func spawn(_ arguments: [String]) -> pid_t {
        var pid = pid_t()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let rc = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
        return rc == 0 ? pid : -1
    }

    private func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }

    @Test func twoProcessesWritingTheSameFileBothSucceedWithNothingLostOrDuplicated() throws {
        let path = TemporaryDirectory.make().file("journal.db")
        _ = try SQLiteEventStore(path: path)
        let helper = Self.helper
        #expect(access(helper, X_OK) == 0, "build the store-stress helper (swift build --build-tests)")
        let count = 300
        let pids = (1...2).map { worker in spawn([helper, "append", path, String(worker), String(count)]) }
        #expect(pids.allSatisfy { $0 > 0 })
        let codes = pids.map { wait($0) }
        #expect(codes == [0, 0])
        let store = try SQLiteEventStore(path: path)
        let all = try store.readAll(from: 1, limit: 10_000)
        #expect(all.count == 2 * count)
        #expect(all.map(\.position) == Array(1...Int64(2 * count)))
        #expect(Set(all.map(\.id)).count == 2 * count)
        for worker in 1...2 {
            // Each worker's own events keep their order.
            let mine = all.filter { $0.dataText.hasPrefix(#"{"worker":\#(worker),"#) }
            #expect(mine.count == count)
            #expect(mine.map(\.occurredAt.millisecondsSinceEpoch) == (0..<Int64(count)).map { $0 })
        }
        #expect(try store.verify().events == Int64(2 * count))
    }
}
