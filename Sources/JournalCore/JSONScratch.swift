/// The parser's scratch for the members of the objects and arrays being read: members are pushed
/// as they are parsed and moved, when their container closes, into one array of exactly their
/// number. A small object then costs one allocation instead of one per doubling of its array.
///
/// A class so that members left behind by a parse error are released in `deinit`. Moving
/// members out with `moveInitialize` is what avoids a retain and a release per member; the
/// unsafe code is in this type only.
final class JSONScratch<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The element at `index` (below `count`).
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "scratch index out of range")
        return base[index]
    }

    /// Moves the elements from `start` to the top into a new array (in order) and removes them.
    func pop(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count, "scratch start out of range")
        let moved = count - start
        count = start
        return [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
            // `buffer` holds at least `moved` elements; the scratch no longer owns them.
            buffer.baseAddress!.moveInitialize(from: base + start, count: moved)
            initialized = moved
        }
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
