/// A cursor over one sorted run of an external sort: its current item, and the next.
package protocol SortedRunCursor {
    associatedtype Failure: Error
    /// True once the run has no item left.
    var isAtEnd: Bool { get }
    /// The current item sorts before `other`'s (neither at its end).
    func precedes(_ other: Self) -> Bool
    /// Moves to the next item.
    mutating func advance() throws(Failure)
}

/// A k-way merge of sorted runs (the journal load's event ids, a recording's final states): a
/// binary heap of run cursors by their current item.
package struct SortedRunMerge<Cursor: SortedRunCursor> {
    package private(set) var cursors: [Cursor]
    private var heap: [Int]

    package init(cursors: [Cursor]) {
        self.cursors = cursors
        heap = cursors.indices.filter { !cursors[$0].isAtEnd }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    /// The index in `cursors` of the run whose current item comes first; nil once all are done.
    package var first: Int? { heap.first }

    /// Moves the first run (``first``) to its next item.
    package mutating func advanceFirst() throws(Cursor.Failure) {
        guard let top = heap.first else { return }
        try cursors[top].advance()
        if cursors[top].isAtEnd {
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
        }
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var child = left
            if left + 1 < heap.count, cursors[heap[left + 1]].precedes(cursors[heap[left]]) { child = left + 1 }
            guard cursors[heap[child]].precedes(cursors[heap[parent]]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
