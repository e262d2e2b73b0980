/// A state's fields as the buffers that hold them, for the loops that visit every field of
/// every state (a record's step, a comparison): a field is read in place, without an
/// `ArraySlice` (and the reference count it takes) for each. Valid only inside the closure of
/// ``StateFields/withView(_:)`` or ``ReplayLaneState/withView(_:)`` that gives it.
struct FieldsView {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where each field ends in `bytes`, from `first` on; field `i` begins where `i - 1` ends.
    let ends: UnsafeBufferPointer<Int>
    let first: Int
    let count: Int

    /// The bytes of field `index`.
    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        let at = first + index
        let start = at == 0 ? 0 : ends[at - 1]
        return UnsafeBufferPointer(rebasing: bytes[start..<ends[at]])
    }

    /// True when field `index` has the same bytes here as field `otherIndex` in `other`.
    func sameField(_ index: Int, as other: FieldsView, at otherIndex: Int) -> Bool {
        guard otherIndex < other.count else { return false }
        return Self.same(self[index], other[otherIndex])
    }

    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where a[offset] != b[offset] { return false }
        return true
    }
}
