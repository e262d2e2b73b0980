/// A binary min-heap of in-flight journeys keyed by the time of their next event, ties broken by
/// admission order so that the order of a run never depends on the heap's internals.
///
/// The keys are unique (the admission sequence is), so any correct heap hands the entries out in
/// the same order. Sifting moves a hole instead of swapping, through the array's buffer, and a
/// replaced first entry goes bottom-up (Floyd): down the path of smaller children to a leaf with
/// one comparison a level, then up to its place, which is near the bottom for most journeys.
struct JourneyQueue {
    struct Entry {
        /// The time (sign bit flipped, so that unsigned order is signed order) in the high
        /// 64 bits, the admission sequence in the low ones: one comparison orders two entries.
        private var key: UInt128
        var slot: Int32

        init(time: Int64, sequence: UInt64, slot: Int32) {
            key = UInt128(UInt64(bitPattern: time) ^ (1 << 63)) << 64 | UInt128(sequence)
            self.slot = slot
        }

        var time: Int64 { Int64(bitPattern: UInt64(truncatingIfNeeded: key >> 64) ^ (1 << 63)) }
        var sequence: UInt64 { UInt64(truncatingIfNeeded: key) }

        @inline(__always)
        func precedes(_ other: Entry) -> Bool { key < other.key }
    }

    private var heap: [Entry] = []

    var count: Int { heap.count }
    var isEmpty: Bool { heap.isEmpty }
    var first: Entry? { heap.first }

    init(capacity: Int) { heap.reserveCapacity(capacity) }

    mutating func push(_ entry: Entry) {
        heap.append(entry)
        heap.withUnsafeMutableBufferPointer { buffer in
            Self.siftUp(entry, from: buffer.count - 1, in: buffer)
        }
    }

    mutating func popFirst() -> Entry? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty { replaceFirst(last) }
        return top
    }

    /// Replaces the first entry (cheaper than pop + push when a journey has more events).
    mutating func replaceFirst(_ entry: Entry) {
        heap.withUnsafeMutableBufferPointer { buffer in
            let count = buffer.count
            // Down the smaller children to a leaf, moving each up into the hole...
            var hole = 0
            while true {
                let left = 2 * hole + 1
                guard left < count else { break }
                let right = left + 1
                let child = right < count && buffer[right].precedes(buffer[left]) ? right : left
                buffer[hole] = buffer[child]
                hole = child
            }
            // ...then up from there to where the entry belongs.
            Self.siftUp(entry, from: hole, in: buffer)
        }
    }

    /// Puts `entry` into the hole at `start` or above it, moving the entries it precedes down.
    @inline(__always)
    private static func siftUp(_ entry: Entry, from start: Int, in buffer: UnsafeMutableBufferPointer<Entry>) {
        var hole = start
        while hole > 0 {
            let parent = (hole - 1) / 2
            guard entry.precedes(buffer[parent]) else { break }
            buffer[hole] = buffer[parent]
            hole = parent
        }
        buffer[hole] = entry
    }
}
