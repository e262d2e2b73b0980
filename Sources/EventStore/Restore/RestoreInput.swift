import JournalCore

/// What a restore reads: leaf lines (export lines) in position order, each with the number by
/// which messages name it.
package protocol RestoreInput {
    /// How messages name an item: `line` (of an export file) or `position` (an entry of a mirror).
    var itemName: String { get }

    /// The next line and its number (from 1), nil after the last.
    mutating func next() throws(RestoreError) -> (number: Int64, line: [UInt8])?
}

/// The lines of an export file, read a mebibyte at a time: memory does not grow with the file.
/// Lines end with a line feed (the last one may not); a line is at most `maxLineBytes`.
package struct ExportFileInput: RestoreInput {
    package let path: String
    package var itemName: String { "line" }
    private let file: FileDescriptor
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var number: Int64 = 0

    /// The longest line taken: an event's payload is limited far below this.
    static let maxLineBytes = 64 << 20
    static let chunkBytes = 1 << 20

    package init(path: String) throws(RestoreError) {
        self.path = path
        do {
            file = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw RestoreError(.failure, "cannot read \(path): \(error)")
        }
    }

    /// Closes the file.
    package func close() { file.close() }

    package mutating func next() throws(RestoreError) -> (number: Int64, line: [UInt8])? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                number += 1
                return (number, line)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                number += 1
                return (number, line)
            }
            guard buffer.count - start <= Self.maxLineBytes else {
                throw RestoreError(.integrity, "line \(number + 1): longer than \(Self.maxLineBytes) bytes")
            }
            try fill()
        }
    }

    /// Drops the lines read and appends the next chunk of the file.
    private mutating func fill() throws(RestoreError) {
        buffer.removeSubrange(0..<start)
        start = 0
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkBytes))
        let count: Int
        do {
            count = try buffer.withUnsafeMutableBytes { bytes throws(Errno) in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[old...]))
            }
        } catch {
            throw RestoreError(.failure, "cannot read \(path): \(error)")
        }
        buffer.removeSubrange((old + count)...)
        if count == 0 { atEnd = true }
    }
}

/// The entries of a mirror (`MirrorEntries`: each checked against the level-0 tiles as read).
package struct MirrorInput: RestoreInput {
    private var entries: MirrorEntries
    package var itemName: String { "position" }

    package init(_ entries: MirrorEntries) { self.entries = entries }

    package mutating func next() throws(RestoreError) -> (number: Int64, line: [UInt8])? {
        do {
            guard let (index, line) = try entries.next() else { return nil }
            return (index + 1, Array(line))
        } catch {
            throw RestoreError(error.kind == .io ? .failure : .integrity, error.message)
        }
    }
}
