import Domain

/// A batch of events read from the log: the views, and one arena holding the `data` bytes of
/// the events whose fields a fold reads (one allocation per batch, not one per event). The
/// views' `data` pointers point into the arena and stay valid as long as the batch lives.
final class EventBatch {
    let views: [EventView]
    /// The names of the streams the reader met for the first time in this batch.
    let names: [Int64: String]
    /// Owns the arena the views' data points into.
    private let arena: EventArena

    /// Seals what `builder` gathered: every view's `data` points into the arena.
    init(_ builder: consuming EventBatchBuilder) {
        var views = builder.views
        let base = builder.arena.pointer
        for index in views.indices where builder.offsets[index].count > 0 {
            views[index].data = UnsafeBufferPointer(
                start: base + builder.offsets[index].start,
                count: builder.offsets[index].count)
        }
        for (index, offset) in builder.metaOffsets {
            views[index].meta = UnsafeBufferPointer(start: base + offset.start, count: offset.count)
        }
        self.views = views
        names = builder.names
        arena = builder.arena
    }

    var count: Int { views.count }
    var last: EventView? { views.last }
}

/// The bytes of a batch's data: freed with the last batch or builder that holds them.
final class EventArena {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        pointer = .allocate(capacity: capacity)
    }

    deinit { pointer.deallocate() }

    /// Grows to at least `needed` bytes, keeping the first `used`.
    func grow(to needed: Int, keeping used: Int) {
        let grown = max(capacity * 2, needed)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.update(from: pointer, count: used)
        pointer.deallocate()
        pointer = bigger
        capacity = grown
    }
}

/// Gathers a batch while the log is read: a value the reader keeps in a local variable, so
/// appending an event costs no exclusivity check on a class's properties (it did, per event,
/// when the batch was appended to in place).
struct EventBatchBuilder {
    fileprivate(set) var views: [EventView] = []
    var names: [Int64: String] = [:]
    fileprivate let arena: EventArena
    /// The arena's current address and size (copied here: read per event without a class access).
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var used = 0
    /// Start offset and length in the arena of each view's data (0, 0 when not copied).
    fileprivate var offsets: [(start: Int, count: Int)] = []
    /// The same for the `meta` of the views that have one (by view index: most events have none).
    fileprivate var metaOffsets: [(index: Int, offset: (start: Int, count: Int))] = []

    init(expected: Int) {
        arena = EventArena(capacity: max(4096, expected * 128))
        base = arena.pointer
        capacity = arena.capacity
        views.reserveCapacity(expected)
        offsets.reserveCapacity(expected)
    }

    var count: Int { views.count }

    /// Appends an event; `data` is copied when `kind` needs it, `meta` when it is not empty
    /// (the `streams` directory reads its `correlationId`).
    mutating func append(
        position: Int64, stream: Int64, kind: EventType?, category: StreamCategory?,
        occurredAt: Int64, data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer? = nil
    ) {
        var offset = 0
        var length = 0
        if kind?.readsData == true && !data.isEmpty {
            offset = copy(data)
            length = data.count
        }
        if let meta, meta.count > 2 { // `{}` holds nothing
            metaOffsets.append((views.count, (copy(meta), meta.count)))
        }
        offsets.append((offset, length))
        views.append(
            EventView(
                position: position, stream: stream, kind: kind, category: category,
                occurredAt: occurredAt, data: UnsafeBufferPointer(start: nil, count: 0)))
    }

    /// Copies `bytes` into the arena; returns where they start.
    private mutating func copy(_ bytes: UnsafeRawBufferPointer) -> Int {
        if used + bytes.count > capacity {
            arena.grow(to: used + bytes.count, keeping: used)
            base = arena.pointer
            capacity = arena.capacity
        }
        UnsafeMutableRawPointer(base + used).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        let start = used
        used += bytes.count
        return start
    }

    /// Sets a view's category (streams met for the first time are resolved after the read).
    mutating func setCategory(_ category: StreamCategory?, at index: Int) { views[index].category = category }

    /// The stream key of the event at `index`.
    func stream(at index: Int) -> Int64 { views[index].stream }
}
