import JournalCore

/// The event ids of a journal being loaded, sorted as the load goes, for `finish()` to fill
/// `journal_event_ids` in id order without sorting the log.
///
/// SQLite's own way, `INSERT … SELECT … ORDER BY event_id`, reads every row of the log again and
/// sorts 16-byte records with its generic sorter (BENCHMARKS.md, "Load path"). Here committed
/// transactions' ids (24 bytes each: the two words of the packed id and the position) gather in
/// memory until there are `runEntries` of them (6 MiB), which are sorted and written as one run
/// to a file without a name beside the journal, so memory stays bounded; `finish()` merges the
/// runs and inserts them 256 rows per statement (`SQLiteJournalLoad`). The id index's primary
/// key still refuses a repeated id.
///
/// Runs of several transactions, in any order: the preparing thread does not sort each batch,
/// and a load makes a quarter of the runs one per 65,536-event batch would make, so the merge's
/// heap is two levels shallower.
///
/// Ids of a rolled-back transaction or savepoint are dropped with it. An id that does not pack
/// (not a lowercase canonical UUID: stored as text, which sorts before every 16-byte id) makes
/// `canMerge` false, and `finish()` goes SQLite's way.
final class LoadEventIDs {
    struct Entry: Comparable {
        var high: UInt64
        var low: UInt64
        var position: Int64

        /// The order of the stored 16-byte ids: big-endian words, compared as unsigned.
        static func < (a: Entry, b: Entry) -> Bool { a.high != b.high ? a.high < b.high : a.low < b.low }
        static func == (a: Entry, b: Entry) -> Bool { a.high == b.high && a.low == b.low }
    }

    private let file: FileSystem.AnonymousFile
    /// The open transaction's ids.
    private var pending: [Entry] = []
    /// Committed ids not yet in a run, in the order they came.
    private var gathered: [Entry] = []
    /// Where each sorted run starts in the file, and its entries.
    private var runs: [Run] = []
    private var fileSize = 0
    /// False once an id that does not pack was seen (even in a transaction rolled back since).
    private(set) var canMerge = true
    /// Committed ids gathered before they are sorted into a run (262,144: 6 MiB).
    let runEntries: Int
    /// Entries per read when merging, for each run (4096: 96 KiB a run).
    let readEntries: Int

    init(beside path: String, runEntries: Int = 1 << 18, readEntries: Int = 4096) throws(FileSystem.Failure) {
        file = try FileSystem.AnonymousFile(beside: path + ".ids-")
        self.runEntries = max(1, runEntries)
        self.readEntries = max(1, readEntries)
    }

    /// While true, `add` ignores ids: the open transaction's come whole (`addCommitted`).
    var suspended = false

    /// The id of the event written at `position` in the open transaction.
    func add(_ key: EventIDKey, position: Int64) {
        guard !suspended else { return }
        switch key {
        case let .packed(high, low): pending.append(Entry(high: high, low: low, position: position))
        case .text: stopMerging()
        }
    }

    /// Forgets the open transaction's ids after `position` (a savepoint rolled back to there).
    func dropPending(after position: Int64) {
        while let last = pending.last, last.position > position { pending.removeLast() }
    }

    /// Forgets the open transaction's ids (it rolled back).
    func dropPending() {
        pending.removeAll(keepingCapacity: true)
    }

    /// The open transaction committed: its ids join the next run.
    func commitPending() {
        if canMerge {
            gathered.append(contentsOf: pending)
            writeRunIfFull()
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// A committed transaction's ids, in any order (a `LoadPreparer`'s, with positions counted
    /// from 0 in the batch: `positionBase` is added to each); `packed` false when one did not pack.
    func addCommitted(_ entries: [Entry], positionBase: Int64, packed: Bool) {
        if !packed { stopMerging() }
        guard canMerge else { return }
        gathered.reserveCapacity(gathered.count + entries.count)
        for var entry in entries {
            entry.position += positionBase
            gathered.append(entry)
        }
        writeRunIfFull()
    }

    /// `finish()` will go SQLite's way: the ids gathered so far are not needed.
    private func stopMerging() {
        canMerge = false
        gathered = []
    }

    private func writeRunIfFull() {
        if gathered.count >= runEntries { writeRun() }
    }

    /// Sorts the gathered ids and writes them as one run at the end of the file. When a run
    /// cannot be written, `finish()` goes SQLite's way (`canMerge` false): slower, the same index.
    private func writeRun() {
        defer { gathered.removeAll(keepingCapacity: true) }
        guard canMerge, !gathered.isEmpty else { return }
        gathered.sort()
        do throws(FileSystem.Failure) {
            try gathered.withBytes { bytes throws(FileSystem.Failure) in try file.write(bytes, at: fileSize) }
        } catch {
            stopMerging()
            return
        }
        runs.append(Run(offset: fileSize, count: gathered.count))
        fileSize += gathered.count * MemoryLayout<Entry>.stride
    }

    struct Run {
        var offset: Int
        var count: Int
    }

    /// Every committed id in id order (equal ids one after the other): `next()` until nil.
    func merged() throws(FileSystem.Failure) -> Merge {
        writeRun()
        var cursors: [RunCursor] = []
        for run in runs { cursors.append(try RunCursor(file: file, run: run, readEntries: readEntries)) }
        return Merge(cursors: cursors)
    }

    /// A k-way merge of the runs (``SortedRunMerge``).
    struct Merge {
        private var runs: SortedRunMerge<RunCursor>

        fileprivate init(cursors: [RunCursor]) { runs = SortedRunMerge(cursors: cursors) }

        mutating func next() throws(FileSystem.Failure) -> Entry? {
            guard let first = runs.first, let entry = runs.cursors[first].current else { return nil }
            try runs.advanceFirst()
            return entry
        }
    }

    /// Reads one run a block at a time, into the same block.
    fileprivate struct RunCursor: SortedRunCursor {
        let file: FileSystem.AnonymousFile
        var next: Int
        var remaining: Int
        var block: [Entry]
        var blockCount = 0
        var index = 0
        var current: Entry?

        init(file: FileSystem.AnonymousFile, run: Run, readEntries: Int) throws(FileSystem.Failure) {
            self.file = file
            next = run.offset
            remaining = run.count
            block = [Entry](repeating: Entry(high: 0, low: 0, position: 0), count: min(readEntries, run.count))
            try advance()
        }

        var isAtEnd: Bool { current == nil }

        func precedes(_ other: RunCursor) -> Bool {
            guard let mine = current, let theirs = other.current else { return false }
            return mine < theirs
        }

        mutating func advance() throws(FileSystem.Failure) {
            index += 1
            if index >= blockCount {
                guard remaining > 0 else {
                    current = nil
                    return
                }
                let count = min(remaining, block.count)
                let (file, offset) = (file, next)
                try block.withMutableBytes { bytes throws(FileSystem.Failure) in
                    try file.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<(count * MemoryLayout<Entry>.stride)]),
                        at: offset)
                }
                next += count * MemoryLayout<Entry>.stride
                remaining -= count
                blockCount = count
                index = 0
            }
            current = block[index]
        }
    }
}
