/// A stream's name in a record (``ReplayRecordFormat/NameForm``): a category's prefix and a UUID
/// in one case are 17 bytes, the UUID's 16 and a byte for the form; any other name is written
/// whole.
enum ReplayRecordName {
    /// The UUID after `prefix` in `name` as 16 bytes, and whether its letters are upper case;
    /// nil when `name` is not `prefix` and a UUID (`8-4-4-4-12` hex digits, letters in one case).
    static func uuid(of name: String, prefix: String) -> (bytes: [UInt8], upper: Bool)? {
        var name = name
        return name.withUTF8 { text -> (bytes: [UInt8], upper: Bool)? in
            let start = prefix.utf8.count
            guard text.count == start + 36 else { return nil }
            var bytes = [UInt8](repeating: 0, count: 16)
            var lower = false
            var upper = false
            var nibble = 0
            for offset in 0..<36 {
                let byte = text[start + offset]
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"):
                    value = byte - UInt8(ascii: "a") + 10
                    lower = true
                case UInt8(ascii: "A")...UInt8(ascii: "F"):
                    value = byte - UInt8(ascii: "A") + 10
                    upper = true
                default: return nil
                }
                bytes[nibble / 2] |= nibble % 2 == 0 ? value << 4 : value
                nibble += 1
            }
            guard !(lower && upper) else { return nil }
            return (bytes, upper)
        }
    }

    /// `prefix` and the UUID of `bytes` (16), in lower or upper case hex.
    static func name(prefix: String, uuid bytes: ArraySlice<UInt8>, upper: Bool) -> String {
        let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var text = Array(prefix.utf8)
        text.reserveCapacity(text.count + 36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The slots of a record's open streams: a new stream takes the smallest free slot, and a
/// stream's slot is free again after its last event, so that slot numbers stay within the
/// streams open at once (one or two bytes), whatever the log's.
struct ReplayRecordSlots {
    /// Free slots below `next`, a binary min-heap.
    private var free: [Int] = []
    private(set) var next = 0

    mutating func take() -> Int {
        guard let smallest = free.first else {
            next += 1
            return next - 1
        }
        let last = free.removeLast()
        if !free.isEmpty {
            free[0] = last
            var index = 0
            while true {
                let left = 2 * index + 1
                guard left < free.count else { break }
                let child = left + 1 < free.count && free[left + 1] < free[left] ? left + 1 : left
                guard free[child] < free[index] else { break }
                free.swapAt(child, index)
                index = child
            }
        }
        return smallest
    }

    mutating func release(_ slot: Int) {
        free.append(slot)
        var index = free.count - 1
        while index > 0 {
            let parent = (index - 1) / 2
            guard free[index] < free[parent] else { break }
            free.swapAt(index, parent)
            index = parent
        }
    }
}
