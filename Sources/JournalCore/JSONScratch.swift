/// The parser's scratch for the members of the objects and arrays being read: members are pushed
/// as they are parsed and moved, when their container closes, into one array of exactly their
/// number. A small object then costs one allocation instead of one per doubling of its array.
///
/// It starts in memory the parse lends it (`withUnsafeTemporaryAllocation`, on the stack) and
/// moves to the heap only for a container with more members than that holds, so a parse
/// allocates nothing for its scratch. Noncopyable: it owns the members it holds (released in
/// `deinit` when a parse error leaves some behind) and, once grown, its heap memory. Moving
/// members out with `moveInitialize` avoids a retain and a release per member; the unsafe code is
/// in this type only.
struct JSONScratch<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var onHeap = false
    private(set) var count = 0

    /// Starts in `buffer` (uninitialized), which must outlive the scratch.
    init(in buffer: UnsafeMutableBufferPointer<Element>) {
        precondition(buffer.count > 0, "the scratch needs room for one member")
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    deinit {
        base.deinitialize(count: count)
        if onHeap { base.deallocate() }
    }

    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from `start` to the top into a new array (in order) and removes them.
    mutating func pop(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count, "scratch start out of range")
        let moved = count - start
        count = start
        let source = base + start
        return [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
            // `buffer` holds at least `moved` elements; the scratch no longer owns them.
            buffer.baseAddress!.moveInitialize(from: source, count: moved)
            initialized = moved
        }
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        if onHeap { base.deallocate() }
        base = larger
        capacity *= 2
        onHeap = true
    }
}

extension JSONScratch where Element == (key: String, value: JSONValue) {
    /// True when a member from `start` to the top has the key `key`.
    func containsKey(_ key: String, from start: Int) -> Bool {
        for index in start..<count where base[index].key == key { return true }
        return false
    }
}
