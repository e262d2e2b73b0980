import JournalCore

/// A small, seeded pseudo-random generator: xoshiro256** seeded through SplitMix64.
///
/// The same seed gives the same sequence on every machine and every Swift version, because
/// every derived value (ranges, choices, UUIDs) is computed here rather than through the
/// standard library's random APIs, whose algorithms may change.
public struct SeededRandom: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    public init(seed: UInt64) {
        var splitMix = seed
        func next() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = next()
        s1 = next()
        s2 = next()
        s3 = next()
    }

    /// The next 64 random bits.
    @inline(__always)
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, 45)
        return result
    }

    @inline(__always)
    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// A uniform integer in `0..<bound` (Lemire's multiply-and-reject method, unbiased).
    @inline(__always)
    public mutating func int(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold { product = next().multipliedFullWidth(by: range) }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(below: range.upperBound - range.lowerBound + 1)
    }

    /// A uniform 64-bit integer in `range`.
    public mutating func int64(in range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(int(below: Int(range.upperBound - range.lowerBound + 1)))
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool { int(below: 100) < percent }

    /// A uniform element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[int(below: items.count)] }

    /// An element chosen with integer weights (all weights >= 0, at least one > 0).
    public mutating func weighted<T>(_ items: [(T, Int)]) -> T {
        let total = items.reduce(0) { $0 + $1.1 }
        var roll = int(below: total)
        for (item, weight) in items {
            if roll < weight { return item }
            roll -= weight
        }
        return items[items.count - 1].0
    }

    /// The elements in a random order (Fisher–Yates).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        var index = items.count - 1
        while index > 0 {
            items.swapAt(index, int(in: 0...index))
            index -= 1
        }
        return items
    }

    /// A random version-4 UUID in lowercase text.
    public mutating func uuid() -> String {
        let words = uuidWords()
        return Self.uuidText(high: words.high, low: words.low)
    }

    /// `uuid()` as its two words (`UUIDText.words`): the same draws.
    public mutating func uuidWords() -> (high: UInt64, low: UInt64) {
        var high = next()
        var low = next()
        high = (high & ~0x0000_0000_0000_F000) | 0x0000_0000_0000_4000 // version 4
        low = (low & ~0xC000_0000_0000_0000) | 0x8000_0000_0000_0000 // variant 10
        return (high, low)
    }

    /// A version-7 UUID (RFC 9562): the Unix time in milliseconds in the first 48 bits, then
    /// random bits, so that ids made later sort later.
    public mutating func uuidV7(milliseconds: Int64) -> String {
        let words = uuidV7Words(milliseconds: milliseconds)
        return Self.uuidText(high: words.high, low: words.low)
    }

    /// `uuidV7(milliseconds:)` as its two words: the same draws.
    public mutating func uuidV7Words(milliseconds: Int64) -> (high: UInt64, low: UInt64) {
        let random = next()
        var low = next()
        let time = UInt64(bitPattern: max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        let high = (time << 16) | 0x7000 | (random & 0x0FFF) // version 7
        low = (low & ~0xC000_0000_0000_0000) | 0x8000_0000_0000_0000 // variant 10
        return (high, low)
    }

    /// `prefix` and a random version-4 UUID in one string (a stream name): the same draws and text
    /// as `prefix + uuid()`, then, when `uppercasePercent` > 0, one more draw that uppercases the
    /// UUID with that chance (as `uuid().uppercased()` would), without the intermediate strings.
    public mutating func prefixedUUID(_ prefix: StaticString, uppercasePercent: Int = 0) -> String {
        var high = next()
        var low = next()
        high = (high & ~0x0000_0000_0000_F000) | 0x0000_0000_0000_4000 // version 4
        low = (low & ~0xC000_0000_0000_0000) | 0x8000_0000_0000_0000 // variant 10
        let uppercase = uppercasePercent > 0 && chance(uppercasePercent)
        return Self.uuidText(high: high, low: low, prefix: prefix, uppercase: uppercase)
    }

    private static func uuidText(high: UInt64, low: UInt64, prefix: StaticString = "", uppercase: Bool = false)
        -> String
    {
        let offset = prefix.utf8CodeUnitCount
        // Written into a stack buffer (at most 16 prefix bytes and the 36 of the UUID), then
        // made a string in one piece.
        precondition(offset <= 16, "a UUID prefix of at most 16 bytes")
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &storage) { buffer in
            let text = buffer.baseAddress!
            if offset > 0 { text.copyMemory(from: prefix.utf8Start, byteCount: offset) }
            UUIDText.write(high: high, low: low, uppercase: uppercase, to: text + offset)
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<(offset + 36)]), as: UTF8.self)
        }
    }

    /// `count` random lowercase hexadecimal digits, never more than 12 decimal digits in a row:
    /// a longer run could look like a card number to the sensitive-data guard (spec §3.3).
    public mutating func hex(_ count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { text in
            var digitsInARow = 0
            for index in 0..<count {
                // int(below: 16) is the top four bits of one draw (Lemire's method never rejects a
                // power of two), taken here without the multiplication.
                let value = digitsInARow == 12 ? 10 + int(below: 6) : Int(truncatingIfNeeded: next() >> 60)
                digitsInARow = value < 10 ? digitsInARow + 1 : 0
                text[index] = value < 10 ? UInt8(ascii: "0") + UInt8(value) : UInt8(ascii: "a") + UInt8(value - 10)
            }
            return count
        }
    }
}
