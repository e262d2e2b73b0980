/// A binary min-heap of in-flight journeys keyed by the time of their next event, ties broken by
/// admission order so that the order of a run never depends on the heap's internals.
struct JourneyQueue {
    struct Entry {
        var time: Int64
        var sequence: UInt64
        var slot: Int32

        func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []

    var count: Int { heap.count }
    var isEmpty: Bool { heap.isEmpty }
    var first: Entry? { heap.first }

    init(capacity: Int) { heap.reserveCapacity(capacity) }

    mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Entry? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return top
    }

    /// Replaces the first entry (cheaper than pop + push when a journey has more events).
    mutating func replaceFirst(_ entry: Entry) {
        heap[0] = entry
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            let right = left + 1
            let child = right < count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
