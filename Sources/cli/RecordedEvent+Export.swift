import EventStore
import JournalCore

extension RecordedEvent {
    /// The export line (without its line feed): the import envelope, then the four keys the
    /// journal assigned. `data` and `meta` are written byte for byte as stored.
    ///
    /// `{"id":…,"stream":…,"type":…,"occurredAt":…,"data":{…},"meta":{…},"position":P,"version":V,
    ///   "recordedAt":…,"hash":"<64 hex digits>"}`
    func exportLine(into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.writeString(id, into: &out)
        out.append(contentsOf: #","stream":"#.utf8)
        JSONWriter.writeString(stream.rawValue, into: &out)
        out.append(contentsOf: #","type":"#.utf8)
        JSONWriter.writeString(type, into: &out)
        out.append(contentsOf: #","occurredAt":""#.utf8)
        out.append(contentsOf: occurredAt.description.utf8)
        out.append(contentsOf: #"","data":"#.utf8)
        out.append(contentsOf: data)
        if let meta {
            out.append(contentsOf: #","meta":"#.utf8)
            out.append(contentsOf: meta)
        }
        out.append(contentsOf: #","position":"#.utf8)
        out.append(contentsOf: String(position).utf8)
        out.append(contentsOf: #","version":"#.utf8)
        out.append(contentsOf: String(version).utf8)
        out.append(contentsOf: #","recordedAt":""#.utf8)
        out.append(contentsOf: recordedAt.description.utf8)
        out.append(contentsOf: #"","hash":""#.utf8)
        out.append(contentsOf: hashHex.utf8)
        out.append(contentsOf: #""}"#.utf8)
    }

    /// The hash as 64 lowercase hex digits.
    var hashHex: String { Hex.string(hash) }
}

enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func string(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of 2n hex digits (only for text ``string(_:)`` produced).
    static func bytes(_ hex: String) -> [UInt8] {
        func value(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10 }
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }
}
