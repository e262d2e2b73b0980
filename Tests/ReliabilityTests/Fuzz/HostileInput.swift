/// What a line of a hostile input file must do, as far as its construction tells.
enum LineOracle: Equatable {
    /// Must be appended (not reported).
    case accept
    /// Must be reported with its line number.
    case reject
    /// A blank line: skipped, never reported, but counted.
    case blank
    /// Either; the run's other checks still apply (exit code, counts, nothing written).
    case unknown
}

/// One line of a hostile file: its bytes (without the line feed), the expectation, and the
/// mutation that made it (for failure messages).
struct HostileLine {
    var bytes: [UInt8]
    var oracle: LineOracle
    var mutation: HostileMutation?
    /// The id the line had before any mutation (a line that must be accepted keeps it).
    var id: String

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The ways the fuzzer spoils a valid NDJSON line. Each case documents its oracle.
enum HostileMutation: String, CaseIterable {
    /// Cut anywhere before the end (never to nothing): a JSON object missing its end. Reject.
    case truncate
    /// 1–8 bytes overwritten with random bytes (never a line feed). Unknown.
    case randomBytes
    /// An invalid UTF-8 sequence inserted (lone continuation, overlong, surrogate, > U+10FFFF,
    /// truncated sequence, 0xFF). Reject.
    case invalidUTF8
    /// A UTF-8 byte order mark before the line. Reject (but at the start of the file it is
    /// skipped: accept).
    case byteOrderMark
    /// A carriage return before the line feed (CRLF): dropped, the line stays valid. Accept.
    case crlf
    /// 10,000 nested arrays in `data`. Reject (deeper than the parser's limit).
    case deepNesting
    /// Nesting around the parser's limit of 128. Unknown.
    case nestingAtLimit
    /// A 200 KB string in an unknown `data` field (kept, under every limit). Accept.
    case longString
    /// A huge, negative or long-exponent number in an unknown `data` field (kept as written; 20+
    /// digit integers are not card numbers). Accept.
    case hugeNumber
    /// A 13–19 digit integer in `data`: looks like a card number. Reject.
    case cardNumberInteger
    /// A number with a fraction or exponent (or beyond 64 bits) in a required integer field. Reject
    /// for fractions and exponents, unknown beyond 64 bits.
    case nonIntegerInIntegerField
    /// A duplicate key, at the top level or in `data`. Reject.
    case duplicateKey
    /// A required top-level field with a value of the wrong JSON type. Reject.
    case wrongType
    /// A raw NUL byte. Reject.
    case nulByte
    /// A whitespace-only line inserted before the line. Blank (the line itself stays valid).
    case blankLine
    /// An extra top-level key. Reject.
    case unknownKey
    /// A required top-level key removed. Reject.
    case missingKey
    /// A sensitive key (`pan`, `otp`, `cvv`, …) in `data`. Reject.
    case sensitiveKey
    /// Random bytes instead of the line. Unknown.
    case garbage
    /// The start of this line and the end of another. Unknown.
    case splice
    /// A raw control character inside a string. Reject.
    case controlCharacter
    /// A lone surrogate escape (`\ud800`) in a `data` string. Reject.
    case loneSurrogate
    /// `occurredAt` in a wrong format or an impossible date. Reject.
    case badTimestamp
    /// A line of 50 MB (one string): longer than the default line limit. Reject.
    case fiftyMegabytes

    /// Mutations cheap enough to draw at random (the 50 MB line is placed on purpose).
    static let drawable: [HostileMutation] = allCases.filter { $0 != .fiftyMegabytes }
}
