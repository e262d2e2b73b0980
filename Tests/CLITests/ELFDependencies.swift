import Foundation

/// The `DT_NEEDED` entries of a 64-bit little-endian ELF file: the shared libraries the dynamic
/// loader maps before `main` (what `readelf -d` lists as NEEDED).
enum ELFDependencies {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func needed(_ path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count > 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1 else {
            throw Malformed(description: "\(path) is not a 64-bit little-endian ELF file")
        }
        func integer(_ offset: Int, _ size: Int) throws -> Int {
            guard offset >= 0, offset + size <= bytes.count else {
                throw Malformed(description: "\(path): offset \(offset) is past the end")
            }
            var value = 0
            for index in (0..<size).reversed() { value = value << 8 | Int(bytes[offset + index]) }
            return value
        }
        let sectionTable = try integer(0x28, 8)
        let entrySize = try integer(0x3A, 2)
        let sectionCount = try integer(0x3C, 2)
        for section in 0..<sectionCount {
            let header = sectionTable + section * entrySize
            guard try integer(header + 4, 4) == 6 else { continue } // SHT_DYNAMIC
            let start = try integer(header + 24, 8)
            let size = try integer(header + 32, 8)
            let stringsHeader = sectionTable + (try integer(header + 40, 4)) * entrySize
            let strings = try integer(stringsHeader + 24, 8)
            var names: [String] = []
            for entry in stride(from: start, to: start + size, by: 16) {
                let tag = try integer(entry, 8)
                if tag == 0 { break } // DT_NULL
                guard tag == 1 else { continue } // DT_NEEDED
                var end = strings + (try integer(entry + 8, 8))
                let first = end
                while end < bytes.count, bytes[end] != 0 { end += 1 }
                names.append(String(decoding: bytes[first..<end], as: UTF8.self))
            }
            return names
        }
        return []
    }
}
