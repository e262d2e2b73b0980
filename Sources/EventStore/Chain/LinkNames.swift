import JournalCore

/// The UTF-8 names of stream or type ids, as a scan's chain check spells them into each link,
/// kept by id in direct-mapped slots (an id's low bits choose its slot).
///
/// Ids are handed out in order, so the ids a stretch of the log uses (the streams in flight
/// when it was written) fall into different slots: a scan finds a name with an array index
/// and lends its bytes in place, instead of a dictionary lookup and a string per event. A slot
/// taken by another id is overwritten; when the names fill the table's bytes it starts over.
/// A table holds only names that cannot change under it (committed rows). Not thread-safe:
/// one scan at a time uses it.
final class LinkNames {
    private struct Slot {
        var id: Int64
        var start: Int
        var count: Int
    }

    private let slotCount: Int
    /// Bytes of names kept at most before the table starts over.
    let byteLimit: Int
    /// Allocated at the first lookup: most reads never scan.
    private var slots: UnsafeMutablePointer<Slot>?
    private var bytes: UnsafeMutableRawPointer?
    private var used = 0
    /// The highest id of the pages of names a scan read ahead (`SQLiteJournal.scanAll`): an id
    /// at or below it that the table does not hold was read before and lost its slot, and is
    /// read again alone.
    var pagedThrough: Int64 = 0
    /// A name too long for the table, lent from here.
    private var oversized: UnsafeMutableRawBufferPointer?

    /// `slotCount`: a power of two.
    init(slotCount: Int, byteLimit: Int) {
        precondition(slotCount > 0 && slotCount & (slotCount - 1) == 0, "slot count must be a power of two")
        self.slotCount = slotCount
        self.byteLimit = byteLimit
    }

    deinit {
        slots?.deallocate()
        bytes?.deallocate()
        oversized?.deallocate()
    }

    /// The UTF-8 bytes of the name of `id`, valid until the next call on this table. When the
    /// table does not know it, `load` gives it (and may `remember` names of other ids on the way).
    @inline(__always)
    func name(
        of id: Int64, load: (Int64, LinkNames) throws(EventStoreError) -> String
    ) throws(EventStoreError) -> UnsafeRawBufferPointer {
        if let slots, let bytes, id >= 0 {
            let slot = slots[Int(truncatingIfNeeded: id) & (slotCount - 1)]
            if slot.id == id { return UnsafeRawBufferPointer(start: bytes + slot.start, count: slot.count) }
        }
        let name = try load(id, self)
        return UTF8Bytes.with(name) { remember(id, UnsafeRawBufferPointer($0)) }
    }

    /// Keeps the name of `id` (its UTF-8 bytes) and returns where it is kept, valid until the next
    /// call on this table.
    @discardableResult
    func remember(_ id: Int64, _ name: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard id >= 0, name.count <= byteLimit else {
            oversized?.deallocate()
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: name.count, alignment: 1)
            if let base = name.baseAddress { copy.baseAddress!.copyMemory(from: base, byteCount: name.count) }
            oversized = copy
            return UnsafeRawBufferPointer(copy)
        }
        if slots == nil {
            let allocated = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
            allocated.initialize(repeating: Slot(id: -1, start: 0, count: 0), count: slotCount)
            slots = allocated
            bytes = UnsafeMutableRawPointer.allocate(byteCount: byteLimit, alignment: 8)
        }
        guard let slots, let bytes else { preconditionFailure("a name table without storage") }
        if used + name.count > byteLimit {
            slots.update(repeating: Slot(id: -1, start: 0, count: 0), count: slotCount)
            used = 0
        }
        if let base = name.baseAddress { (bytes + used).copyMemory(from: base, byteCount: name.count) }
        slots[Int(truncatingIfNeeded: id) & (slotCount - 1)] = Slot(id: id, start: used, count: name.count)
        used += name.count
        return UnsafeRawBufferPointer(start: bytes + used - name.count, count: name.count)
    }

    /// Forgets every name (after the file changed behind the store's back).
    func removeAll() {
        slots?.update(repeating: Slot(id: -1, start: 0, count: 0), count: slotCount)
        used = 0
        pagedThrough = 0
    }
}
