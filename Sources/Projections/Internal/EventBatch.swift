/// A batch of events read from the log: the views, and one arena holding the `data` bytes of
/// the events whose fields a fold reads (one allocation per batch, not one per event). The
/// views' `data` pointers are set by ``seal()`` and stay valid as long as the batch lives.
final class EventBatch {
    private(set) var views: [EventView] = []
    /// The names of the streams the reader met for the first time in this batch.
    var names: [Int64: String] = [:]
    private var arena: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var used = 0
    /// Start offset and length in the arena of each view's data (0, 0 when not copied).
    private var offsets: [(start: Int, count: Int)] = []

    init(expected: Int) {
        capacity = max(4096, expected * 128)
        arena = .allocate(capacity: capacity)
        views.reserveCapacity(expected)
        offsets.reserveCapacity(expected)
    }

    deinit { arena.deallocate() }

    var count: Int { views.count }
    var last: EventView? { views.last }

    /// Appends an event; `data` is copied when `kind` needs it.
    func append(position: Int64, stream: Int64, kind: EventKind, category: EventView.Category, occurredAt: Int64,
                data: UnsafeRawBufferPointer) {
        var offset = 0, length = 0
        if kind.readsData && !data.isEmpty {
            if used + data.count > capacity {
                let grown = max(capacity * 2, used + data.count)
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
                bigger.update(from: arena, count: used)
                arena.deallocate()
                arena = bigger
                capacity = grown
            }
            UnsafeMutableRawPointer(arena + used).copyMemory(from: data.baseAddress!, byteCount: data.count)
            offset = used
            length = data.count
            used += data.count
        }
        offsets.append((offset, length))
        views.append(EventView(position: position, stream: stream, kind: kind, category: category,
                               occurredAt: occurredAt, data: UnsafeBufferPointer(start: nil, count: 0)))
    }

    /// Sets a view's category (streams met for the first time are resolved after the read).
    func setCategory(_ category: EventView.Category, at index: Int) { views[index].category = category }

    /// Points every view's `data` into the arena: call once, after the last `append`.
    func seal() {
        for index in views.indices where offsets[index].count > 0 {
            views[index].data = UnsafeBufferPointer(start: arena + offsets[index].start, count: offsets[index].count)
        }
    }
}
