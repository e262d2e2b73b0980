/// Event rows of a journal load's prepared batch that wait to be written `width` to an
/// `INSERT` (`SQLiteJournal.writePendingRows()`): one statement step for sixteen rows
/// instead of one each (BENCHMARKS.md, "Load path").
///
/// A row's payload stays where the batch holds it (its bytes outlive the rows); its hash is
/// copied here, since the writer computes the next event's hash in the same place.
final class PendingEventRows {
    static let width = 16

    struct Row {
        var row: SQLiteJournal.EventRow
        var codec: Int64
        var payload: UnsafeRawBufferPointer
    }

    private(set) var rows: [Row] = []
    private let hashes = UnsafeMutableRawBufferPointer.allocate(byteCount: width * 32, alignment: 8)

    init() {
        rows.reserveCapacity(Self.width)
    }

    deinit { hashes.deallocate() }

    var isFull: Bool { rows.count == Self.width }

    func add(_ row: SQLiteJournal.EventRow, codec: Int64, payload: UnsafeRawBufferPointer, hash: UnsafeRawBufferPointer)
    {
        precondition(
            rows.count < Self.width && hash.count == 32, "a pending row past the width, or a hash of another size")
        UnsafeMutableRawBufferPointer(rebasing: hashes[(32 * rows.count)..<(32 * rows.count + 32)]).copyMemory(
            from: hash)
        rows.append(Row(row: row, codec: codec, payload: payload))
    }

    /// The hash of pending row `index`.
    func hash(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: hashes[(32 * index)..<(32 * index + 32)])
    }

    func removeAll() {
        rows.removeAll(keepingCapacity: true)
    }
}
