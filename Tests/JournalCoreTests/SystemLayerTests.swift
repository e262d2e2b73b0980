import JournalCore
import Testing

@Suite("System layer")
struct SystemLayerTests {
    private static func scratchDirectory() throws -> String {
        try CurrentProcess.makeTemporaryDirectory(prefix: "/tmp/journal-core-test-")
    }

    @Test("a temporary folder is created for its owner only (mode 0700)")
    func temporaryDirectoryIsPrivate() throws {
        let directory = try Self.scratchDirectory()
        let status = try FileStatus.of(directory)
        #expect(status.kind == .directory)
        #expect(status.permissions == 0o700)
    }

    @Test("a file created with create and exclusive gets mode 0600 and refuses an existing name")
    func exclusiveCreation() throws {
        let path = try Self.scratchDirectory() + "/key"
        let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive], permissions: 0o600)
        try file.writeAll(Array("secret".utf8))
        #expect(try file.status() == FileStatus.of(path))
        file.close()
        let status = try FileStatus.of(path)
        #expect(status.kind == .regular)
        #expect(status.permissions == 0o600)
        #expect(status.size == 6)
        #expect(throws: Errno.fileExists) {
            try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive])
        }
    }

    @Test("setPermissions narrows a file's mode whatever it was created with")
    func setPermissions() throws {
        let path = try Self.scratchDirectory() + "/wide"
        let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], permissions: 0o644)
        defer { file.close() }
        try file.setPermissions(0o600)
        #expect(try FileStatus.of(path).permissions == 0o600)
    }

    @Test("the status of a missing path is Errno.noSuchFile")
    func missingPath() throws {
        let path = try Self.scratchDirectory() + "/missing"
        #expect(throws: Errno.noSuchFile) { try FileStatus.of(path) }
    }

    @Test("a regular file's offset is where reading stopped")
    func currentOffset() throws {
        let path = try Self.scratchDirectory() + "/data"
        let writer = try FileDescriptor.open(path, .writeOnly, options: [.create])
        try writer.writeAll(Array("0123456789".utf8))
        writer.close()
        let reader = try FileDescriptor.open(path, .readOnly)
        defer { reader.close() }
        var buffer = [UInt8](repeating: 0, count: 4)
        try buffer.withUnsafeMutableBytes { raw in try reader.readExactly(into: raw) }
        #expect(reader.currentOffset() == 4)
        #expect(!reader.isTerminal)
    }

    @Test("Memory.firstIndex finds the first byte, and nothing in an empty range")
    func memorySearch() {
        let bytes = Array("ab\"c\"".utf8)
        bytes.withUnsafeBytes { raw in
            #expect(Memory.firstIndex(of: UInt8(ascii: "\""), in: raw.baseAddress!, count: raw.count) == 2)
            #expect(Memory.firstIndex(of: UInt8(ascii: "z"), in: raw.baseAddress!, count: raw.count) == nil)
            #expect(Memory.firstIndex(of: UInt8(ascii: "a"), in: raw.baseAddress!, count: 0) == nil)
        }
    }

    @Test("an environment variable is read by name, and one that is not set is nil")
    func environment() {
        #expect(CurrentProcess.variable("PATH") != nil)
        #expect(CurrentProcess.variable("JOURNAL_TEST_VARIABLE_NEVER_SET_7F3A") == nil)
    }
}
