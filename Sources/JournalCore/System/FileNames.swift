#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Operations on a file's name rather than its contents: giving a finished file its final name,
/// removing a partial one.
package enum FileNames {
    /// Gives `source` the name `destination`, replacing what had it, atomically (`rename`).
    package static func rename(_ source: String, to destination: String) throws(Errno) {
        #if canImport(Glibc)
            let renamed = Glibc.rename(source, destination) == 0
        #else
            let renamed = Darwin.rename(source, destination) == 0
        #endif
        guard renamed else { throw Errno.current }
    }

    /// Removes the name `path` (`unlink`); a missing file is not an error.
    package static func remove(_ path: String) {
        _ = unlink(path)
    }
}
