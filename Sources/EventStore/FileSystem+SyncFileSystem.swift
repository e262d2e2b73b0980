import CJournalVFS
import JournalCore

extension FileSystem {
    /// Flushes every file of the file system that holds `path` to the disk (`syncfs`, which
    /// CJournalVFS declares: unistd.h does only under `_GNU_SOURCE`): one call for the thousands
    /// of files a mirror's publish writes, before the file that points to them.
    static func syncFileSystem(of path: String) throws(Failure) {
        let folder: FileDescriptor
        do {
            folder = try FileDescriptor.open(path, .readOnly, options: .directory)
        } catch {
            throw Failure(operation: "opening", path: path, errorNumber: error.rawValue)
        }
        defer { folder.close() }
        guard syncfs(folder.rawValue) == 0 else {
            throw Failure(operation: "syncing", path: path, errorNumber: Errno.current.rawValue)
        }
    }
}
