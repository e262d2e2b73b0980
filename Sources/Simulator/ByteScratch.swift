/// A growable byte buffer that the simulation reuses for every journey: events' data are written
/// here (see `ByteScratch+JSON`), then copied out once per journey. Appending is a bounds check
/// and a copy, without `Array`'s per-call uniqueness and growth checks.
///
/// Used by one thread at a time (the generator's); not `Sendable`.
final class ByteScratch {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 4_096) {
        self.capacity = max(16, capacity)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    /// Appends a string's UTF-8 as is (no quoting, no escaping).
    @inline(__always)
    func append(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in string.utf8 { append(byte) }
        }
    }

    /// Appends `separator`, `name` in quotes and a colon (a name with nothing to escape).
    @inline(__always)
    func appendKey(_ name: UnsafeBufferPointer<UInt8>, after separator: UInt8) {
        reserve(name.count + 4)
        let start = base + count
        start[0] = separator
        start[1] = UInt8(ascii: "\"")
        if let source = name.baseAddress { (start + 2).update(from: source, count: name.count) }
        start[name.count + 2] = UInt8(ascii: "\"")
        start[name.count + 3] = UInt8(ascii: ":")
        count += name.count + 4
    }

    /// The bytes written so far, as an array; the buffer is then empty (its memory is kept).
    func takeAll() -> [UInt8] {
        let bytes = Array(UnsafeBufferPointer(start: base, count: count))
        count = 0
        return bytes
    }
}
