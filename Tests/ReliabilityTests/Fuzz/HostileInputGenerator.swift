import Foundation
import Simulator

/// A seeded fuzzer for `journal import`: valid NDJSON journeys (the CLI tests' `LegalEvents`,
/// each with random event ids and a random stream id), one line of each spoiled by a
/// `HostileMutation`, the journeys' lines interleaved. The same seed gives the same files.
struct HostileInputGenerator {
    var random: SeededRandom
    private var legal = LegalEvents()
    private var number = 0

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// A hostile file: `cases` journeys (one in ten left intact as a control), each with one
    /// mutation, interleaved; `fiftyMegabytes` adds one journey whose spoiled line is 50 MB.
    mutating func file(cases: Int, fiftyMegabytes: Bool = false) -> (
        lines: [HostileLine], tally: [HostileMutation: Int]
    ) {
        var units: [[HostileLine]] = []
        var tally: [HostileMutation: Int] = [:]
        for index in 0..<cases {
            let mutation: HostileMutation? =
                fiftyMegabytes && index == 0
                ? .fiftyMegabytes
                : random.chance(10) ? nil : random.pick(HostileMutation.drawable)
            if let mutation { tally[mutation, default: 0] += 1 }
            units.append(unit(mutation))
        }
        // Interleave, keeping each journey's order.
        var lines: [HostileLine] = []
        var cursors = Array(repeating: 0, count: units.count)
        var open = Array(units.indices)
        while !open.isEmpty {
            let slot = random.int(below: open.count)
            let unit = open[slot]
            lines.append(units[unit][cursors[unit]])
            cursors[unit] += 1
            if cursors[unit] == units[unit].count { open.remove(at: slot) }
        }
        // A byte order mark that starts the file is skipped: that line is the intact one.
        if lines.first?.mutation == .byteOrderMark { lines[0].oracle = .accept }
        return (lines, tally)
    }

    /// The bytes of a file: lines joined by line feeds, with a final one or not.
    static func bytes(_ lines: [HostileLine], finalNewline: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.bytes.count + 1 })
        for (index, line) in lines.enumerated() {
            bytes += line.bytes
            if index < lines.count - 1 || finalNewline { bytes.append(0x0A) }
        }
        return bytes
    }

    // MARK: - Journeys

    /// A legal journey prefix (1 to all of its events) on a fresh random stream, random ids.
    mutating func journey() -> [String] {
        number += 1
        let lines: [String]
        switch random.int(below: 4) {
        case 0: lines = legal.challenged(number)
        case 1: lines = legal.frictionless(number)
        case 2: lines = legal.yellowOTP(number)
        default: lines = legal.green(number)
        }
        let prefix = Array(lines.prefix(random.int(in: 1...lines.count)))
        let oldStream = ConcurrentWritersTests.streamOf(prefix[0])
        let category = oldStream.hasPrefix("3ds-") ? "3ds-" : "card-"
        let newStream = category + random.uuid()
        return prefix.map { line in
            line.replacingOccurrences(of: oldStream, with: newStream)
                .replacingOccurrences(of: idOf(line), with: random.uuid())
        }
    }

    /// One journey with one spoiled line: the lines before it must be accepted, the ones after
    /// it too when the spoiled line must be, else either.
    mutating func unit(_ mutation: HostileMutation?) -> [HostileLine] {
        let texts = journey()
        var lines = texts.map { HostileLine(bytes: Array($0.utf8), oracle: .accept, id: idOf($0)) }
        guard let mutation else { return lines }
        var target = random.int(below: lines.count)
        if mutation == .nonIntegerInIntegerField,
            let withInteger = lines.indices.first(where: { Self.integerField(in: lines[$0].text) != nil })
        {
            target = withInteger
        }
        let other = Array(journey()[0].utf8)
        let (spoiled, oracle) = mutate(lines[target].bytes, mutation, other: other)
        lines[target].bytes = spoiled
        lines[target].oracle = oracle
        lines[target].mutation = mutation
        if mutation == .blankLine {
            let blank: [UInt8] = random.pick([[], [0x20], [0x09, 0x20], [0x0D], [0x20, 0x20, 0x0D]])
            lines.insert(HostileLine(bytes: blank, oracle: .blank, mutation: .blankLine, id: ""), at: target)
            return lines
        }
        if oracle != .accept {
            for index in (target + 1)..<lines.count { lines[index].oracle = .unknown }
        }
        return lines
    }

    // MARK: - Mutations

    mutating func mutate(_ line: [UInt8], _ mutation: HostileMutation, other: [UInt8]) -> ([UInt8], LineOracle) {
        var bytes = line
        switch mutation {
        case .truncate:
            return (Array(bytes.prefix(random.int(in: 1...(bytes.count - 1)))), .reject)
        case .randomBytes:
            for _ in 0..<random.int(in: 1...8) {
                bytes[random.int(below: bytes.count)] = randomByte()
            }
            return (bytes, .unknown)
        case .invalidUTF8:
            let sequence: [UInt8] = random.pick([
                [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                [0xE2, 0x82], [0xFF], [0xC3], [0xF8, 0x88, 0x80, 0x80, 0x80]
            ])
            bytes.insert(contentsOf: sequence, at: random.int(in: 0...bytes.count))
            return (bytes, .reject)
        case .byteOrderMark:
            return ([0xEF, 0xBB, 0xBF] + bytes, .reject)
        case .crlf:
            return (bytes + [0x0D], .accept)
        case .deepNesting:
            let depth = 10_000
            return (
                insertIntoData(
                    bytes, "\"deep\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)),
                .reject
            )
        case .nestingAtLimit:
            let depth = random.int(in: 120...135)
            return (
                insertIntoData(
                    bytes, "\"deep\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)),
                .unknown
            )
        case .longString:
            let letters = Array("abcdefghij klmnopqrstuvwxyz".utf8)
            var text = "\"note\":\""
            text += String(
                decoding: (0..<200_000).map { _ in letters[random.int(below: letters.count)] }, as: UTF8.self)
            return (insertIntoData(bytes, text + "\""), .accept)
        case .hugeNumber:
            let value = random.pick([
                "99999999999999999999999", "-99999999999999999999999", "1e400", "-1E-400", "-0",
                "0.000000000000000000000000001", "123456789012345678901234567890.5", "12345678901",
                "-9223372036854775809", "18446744073709551616"
            ])
            return (insertIntoData(bytes, "\"amount\":\(value)"), .accept)
        case .cardNumberInteger:
            let digits = random.int(in: 13...19)
            let number =
                String(random.int(in: 1...9))
                + String((1..<digits).map { _ in Character(String(random.int(below: 10))) })
            return (insertIntoData(bytes, "\"reference\":\(number)"), .reject)
        case .nonIntegerInIntegerField:
            guard let field = Self.integerField(in: String(decoding: bytes, as: UTF8.self)) else {
                return (insertIntoData(bytes, "\"amount\":1e400"), .accept)
            }
            let (value, oracle): (String, LineOracle) = random.pick([
                ("1.5", .reject), ("2e3", .reject), ("2E+3", .reject),
                ("600.0", .reject), ("-0.0", .reject),
                ("99999999999999999999999", .unknown)
            ])
            return (replace(bytes, field, with: value), oracle)
        case .duplicateKey:
            if random.chance(50) {
                let key = random.pick([
                    #""type":"TransactionClosed""#, #""stream":"3ds-0b9e6f3a-0000-4000-8000-000000000001""#,
                    #""data":{}"#, #""id":"00000000-0000-4000-8000-000000000000""#
                ])
                return (Array(bytes.dropLast()) + Array(",\(key)}".utf8), .reject)
            }
            return (insertIntoData(bytes, #""k":1,"k":2"#), .reject)
        case .wrongType:
            let key = random.pick(["id", "stream", "type", "occurredAt", "data"])
            let value = random.pick(
                key == "data"
                    ? [#""{}""#, "[]", "null", "7", "true"]
                    : ["123", "true", "null", #"["x"]"#, #"{"a":1}"#, "-1.5e3"])
            guard let range = valueRange(of: key, in: bytes) else { return (bytes, .accept) }
            bytes.replaceSubrange(range, with: Array(value.utf8))
            return (bytes, .reject)
        case .nulByte:
            bytes.insert(0x00, at: random.int(in: 0...bytes.count))
            return (bytes, .reject)
        case .blankLine:
            return (bytes, .accept)
        case .unknownKey:
            let key = random.pick([
                #""ID":"x""#, #""typ":"TransactionCreated""#, #""occured_at":"2026-11-29T10:00:00.000Z""#,
                #""extra":1"#, #""Data":{}"#
            ])
            return (Array(bytes.dropLast()) + Array(",\(key)}".utf8), .reject)
        case .missingKey:
            let key = random.pick(["id", "stream", "type", "occurredAt", "data"])
            guard let range = valueRange(of: key, in: bytes) else { return (bytes, .accept) }
            let keyStart = range.lowerBound - key.utf8.count - 3 // "key":
            if key == "id" {
                bytes.removeSubrange(keyStart..<(range.upperBound + 1)) // and the comma after
            } else {
                bytes.removeSubrange((keyStart - 1)..<range.upperBound) // and the comma before
            }
            return (bytes, .reject)
        case .sensitiveKey:
            let key = random.pick([
                "otp", "OTP", "otpValue", "challengeDataEntry", "challengeHTMLDataEntry", "tav",
                "cryptogram", "pan", "cardNumber", "CVV", "cvc", "pushToken"
            ])
            let field = random.chance(50) ? "\"\(key)\":\"x\"" : "\"extra\":{\"deep\":[{\"\(key)\":1}]}"
            return (insertIntoData(bytes, field), .reject)
        case .garbage:
            return ((0..<random.int(in: 1...200)).map { _ in randomByte() }, .unknown)
        case .splice:
            let cut = random.int(in: 1...(bytes.count - 1))
            let otherCut = random.int(in: 1...(other.count - 1))
            return (Array(bytes.prefix(cut)) + Array(other.suffix(from: otherCut)), .unknown)
        case .controlCharacter:
            guard let range = valueRange(of: "stream", in: bytes) else { return (bytes, .accept) }
            let control = UInt8(random.pick([0x01, 0x09, 0x0D, 0x1B, 0x1F, 0x08]))
            bytes.insert(control, at: range.lowerBound + 1 + random.int(below: range.count - 1))
            return (bytes, .reject)
        case .loneSurrogate:
            let escape = random.pick([#""note":"\ud800""#, #""note":"x\udc00y""#, #""note":"\ud83d""#])
            return (insertIntoData(bytes, escape), .reject)
        case .badTimestamp:
            let value = random.pick([
                "2026-11-29T10:15:02Z", "2026-11-29 10:15:02.125Z", "2026-13-01T00:00:00.000Z",
                "2026-02-30T00:00:00.000Z", "2026-11-29T24:00:00.000Z", "2026-11-29T10:15:02.125z",
                "2026-11-29T10:15:02.125+00:00", "2026-11-29T10:15:02.1250Z", "", "1796292000000",
                "2026-11-29T10:60:00.000Z", "+2026-11-29T10:15:02.125Z"
            ])
            guard let range = valueRange(of: "occurredAt", in: bytes) else { return (bytes, .accept) }
            bytes.replaceSubrange(range, with: Array("\"\(value)\"".utf8))
            return (bytes, .reject)
        case .fiftyMegabytes:
            var field = Array("\"blob\":\"".utf8)
            field += [UInt8](repeating: UInt8(ascii: "x"), count: 50 * 1024 * 1024)
            field.append(UInt8(ascii: "\""))
            return (insertIntoData(bytes, field), .reject)
        }
    }

    private mutating func randomByte() -> UInt8 {
        let byte = UInt8(random.int(below: 256))
        return byte == 0x0A ? 0x0B : byte
    }

    /// The first required integer field of a line (`"deviceDataBytes":2048` → the `2048`).
    static func integerField(in line: String) -> Range<Int>? {
        for name in ["deviceDataBytes", "timeoutSeconds", "otpLength"] {
            guard let key = line.range(of: "\"\(name)\":") else { continue }
            let bytes = Array(line.utf8)
            let start = line.utf8.distance(from: line.utf8.startIndex, to: key.upperBound)
            var end = start
            while end < bytes.count, bytes[end] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[end]) { end += 1 }
            return start..<end
        }
        return nil
    }

    private func replace(_ bytes: [UInt8], _ range: Range<Int>, with value: String) -> [UInt8] {
        var bytes = bytes
        bytes.replaceSubrange(range, with: Array(value.utf8))
        return bytes
    }

    /// The byte range of a top-level key's value in a `LegalEvents` line (strings hold no
    /// quotes or braces there, so a scan finds the end).
    func valueRange(of key: String, in bytes: [UInt8]) -> Range<Int>? {
        let needle = Array("\"\(key)\":".utf8)
        guard let start = firstIndex(of: needle, in: bytes) else { return nil }
        let valueStart = start + needle.count
        guard valueStart < bytes.count else { return nil }
        if bytes[valueStart] == UInt8(ascii: "\"") {
            guard let close = bytes[(valueStart + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return valueStart..<(close + 1)
        }
        var depth = 0
        var index = valueStart
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return valueStart..<(index + 1) }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// Inserts `field` (`"key":value`) as the first member of `data`.
    func insertIntoData(_ bytes: [UInt8], _ field: String) -> [UInt8] { insertIntoData(bytes, Array(field.utf8)) }

    func insertIntoData(_ bytes: [UInt8], _ field: [UInt8]) -> [UInt8] {
        guard let range = valueRange(of: "data", in: bytes) else { return bytes }
        var result = Array(bytes[..<(range.lowerBound + 1)])
        result += field
        if range.count > 2 { result.append(UInt8(ascii: ",")) }
        result += bytes[(range.lowerBound + 1)...]
        return result
    }

    private func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
