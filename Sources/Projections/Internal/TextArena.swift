import JournalCore

/// The texts of a batch's rows, gathered by the fold into one byte buffer so that the writer
/// binds them without a copy (`SQLITE_STATIC`): otherwise SQLite copies every bound text into
/// memory of its own, a `malloc`, a `memcpy` and a `free` per bind on the writer thread
/// (BENCHMARKS.md, "Rebuild path").
///
/// A text is kept up to its first NUL, as the string bind does (C-string semantics).
struct TextArena: Sendable {
    /// Where one text lies in the buffer; `count` −1 is NULL.
    struct Span: Sendable {
        var start: Int32
        var count: Int32
        static let null = Span(start: 0, count: -1)
    }

    private var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Appends a text (nil: NULL) and returns its span.
    mutating func add(_ text: String?) -> Span {
        guard var text else { return .null }
        let start = bytes.count
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let length = Memory.firstIndex(of: 0, in: base, count: utf8.count) ?? utf8.count
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
        }
        precondition(bytes.count < Int(Int32.max), "a batch's texts exceed 2 GB")
        return Span(start: Int32(start), count: Int32(bytes.count - start))
    }

    /// The buffer's bytes for the duration of `body` (the spans' texts stay where they are).
    func withBytes<R>(_ body: (Bytes) throws(ProjectionError) -> R) throws(ProjectionError) -> R {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ProjectionError) -> R in
            try body(Bytes(raw: UnsafeRawBufferPointer(buffer)))
        }
    }

    /// The buffer while ``withBytes(_:)`` runs.
    struct Bytes {
        let raw: UnsafeRawBufferPointer

        /// The text of a span (nil: NULL).
        subscript(span: Span) -> UnsafeRawBufferPointer? {
            guard span.count >= 0 else { return nil }
            guard span.count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(rebasing: raw[Int(span.start)..<Int(span.start) + Int(span.count)])
        }
    }
}
