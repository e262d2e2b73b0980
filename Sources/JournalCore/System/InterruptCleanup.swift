import CInterruptCleanup

/// Files that SIGINT or SIGTERM remove before they end the process: the package's one wrapper
/// of the signal handler in `CInterruptCleanup` (C, because a handler may call only
/// async-signal-safe functions: it unlinks, writes one line to stderr and calls `_exit`).
///
/// ```swift
/// let cleanup = InterruptCleanup(removing: [loading, loading + "-wal"],
///                                before: "error: interrupted by ", after: ": nothing was kept\n")
/// // … write the files …
/// try cleanup?.keep { try move(loading, to: path) }   // a signal meanwhile waits, then ends us
/// ```
///
/// While armed, the first SIGINT or SIGTERM unlinks the paths, writes `before` + the signal's
/// name (`SIGINT`, `SIGTERM`) + `after` to stderr and exits with 128 + the signal (130, 143).
/// Once disarmed (or kept), the signal does what it did before: a process that ignored SIGINT
/// (started in the background by a script) still does.
package final class InterruptCleanup {
    private let slot: Int32
    private var armed = true

    /// The most paths one cleanup removes.
    package static let maxPaths = Int(INTERRUPT_CLEANUP_PATHS)

    /// Arms a cleanup of `paths`; nil when it cannot be armed (every slot of the process is
    /// taken, a path or a text is too long, or the handler cannot be installed): the files are
    /// then left by a signal, as by a SIGKILL.
    package init?(removing paths: [String], before: String, after: String) {
        guard !paths.isEmpty, paths.count <= Self.maxPaths else { return nil }
        let slot = Self.withCStrings(paths) { pointers in
            interrupt_cleanup_arm(pointers, Int32(paths.count), before, after)
        }
        guard slot >= 0 else { return nil }
        self.slot = slot
    }

    deinit { disarm() }

    /// Runs `keeping` (which gives the files their final name) with the cleanup held back: a
    /// signal that arrives meanwhile waits for it. When `keeping` returns, the cleanup is over
    /// and such a signal ends the process as it would have without the handler (what was kept
    /// stays); when it throws, the cleanup is armed again, and such a signal removes the files
    /// and ends the process.
    package func keep<R, E: Error>(_ keeping: () throws(E) -> R) throws(E) -> R {
        guard armed else { return try keeping() }
        _ = interrupt_cleanup_begin_keep(slot)
        do {
            let result = try keeping()
            armed = false
            interrupt_cleanup_end_keep(slot, 1)
            return result
        } catch {
            interrupt_cleanup_end_keep(slot, 0)
            throw error
        }
    }

    /// Ends the cleanup: the files are the caller's again. Idempotent. Does not return when a
    /// signal is removing them (the process is ending).
    package func disarm() {
        guard armed else { return }
        armed = false
        interrupt_cleanup_disarm(slot)
    }

    /// Text the handler writes before its line: `"\r\u{1B}[K"` clears a progress line drawn on
    /// a terminal; `""` for none (the default).
    package static func setLineStart(_ text: String) {
        interrupt_cleanup_set_line_start(text)
    }

    private static func withCStrings<R>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let copies = strings.map { strdupCopy($0) }
        defer { for copy in copies { copy.deallocate() } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// A NUL-terminated copy of `text`, to deallocate.
    private static func strdupCopy(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = Array(text.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return copy
    }
}
