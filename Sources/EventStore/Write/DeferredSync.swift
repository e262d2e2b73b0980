import JournalCore

/// What makes a group's commit durable when the backend committed it without waiting for the
/// disk (SQLite with `synchronous=NORMAL` in WAL mode): an `fdatasync` of the WAL. The group's
/// leader runs it after it has released the writer, so the next group appends meanwhile, and
/// answers the group's appenders only after it (docs/decisions/group-commit.md).
struct DeferredSync: Sendable {
    let walPath: String

    func run() throws(EventStoreError) {
        do throws(Errno) {
            let file = try FileDescriptor.open(walPath, .readOnly)
            defer { file.close() }
            try file.dataSync()
        } catch {
            throw EventStoreError(code: .io, message: "syncing \(walPath) to the disk: \(error)")
        }
    }
}
