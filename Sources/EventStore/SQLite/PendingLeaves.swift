import JournalCore

/// The leaf hashes of a prepared batch being made on another thread (`PreparedLeafHashes`), and
/// the places kept for them in the write's leaf hashes: (offset in `leafHashes`, event index).
struct PendingLeaves {
    private var task: BackgroundTask<PreparedLeafHashes>?
    private var result: PreparedLeafHashes?
    var fills: [(slot: Int, event: Int)] = []

    /// Starts making the leaf hashes of `batch`'s events hashed ahead (none for nil).
    init(making batch: PreparedLoadBatch?) {
        if let batch { task = BackgroundTask { PreparedLeafHashes.compute(batch) } }
    }

    /// The hashes, once made (waits for them); nil when none are being made (no batch).
    mutating func made() -> PreparedLeafHashes? {
        if let task {
            result = task.wait()
            self.task = nil
        }
        return result
    }

    /// Waits for the other thread, which reads the batch's bytes, before they may go.
    mutating func finish() {
        task?.finish()
    }
}
