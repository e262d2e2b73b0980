import EventStore
import JournalCore

/// `journal export` of the log from a position on, over the store's borrowing scan: each line is
/// rendered from the fields the scan lends (no `RecordedEvent`, no string per event), a page at
/// a time. A page is written only once the scan returned, that is once it checked every event's
/// chain link in it (spec §4): no line of an event whose hash does not check is printed, and
/// the pages before the failing one are printed as `readAll` pages would be.
///
/// Stream names are read a page at a time as the scan meets ids past those it knows, and kept
/// (`StreamNameTable`); the scan then stops only to read a page of names, a few hundred times on a
/// log of millions of streams.
package struct LogExport {
    private let store: any EventScanning
    private let pageSize: Int
    private let namePage: Int
    private var streams = StreamNameTable()
    private var types = NameSlots<[UInt8]>()

    /// Stream names read at a time.
    static let namePage = 4_096

    /// - Parameters:
    ///   - pageSize: events per page written (the page size of `readAll` it stands for).
    ///   - namePage: stream names read at once (tests read a few at a time to meet many ids).
    package init(store: any EventScanning, pageSize: Int, namePage: Int = LogExport.namePage) {
        self.store = store
        self.pageSize = max(1, pageSize)
        self.namePage = max(1, namePage)
    }

    /// Writes the line of every event from `position` on, one page of lines at a time.
    package mutating func run(from position: Int64, write: ([UInt8]) throws -> Void) throws {
        var next = position
        var page: [UInt8] = []
        var atEnd = false
        while !atEnd {
            page.removeAll(keepingCapacity: true)
            var rendered = 0
            // One page: one scan, unless it meets a stream or type whose name must be read first.
            while rendered < pageSize {
                let wanted = pageSize - rendered
                var unnamed: (position: Int64, stream: Int64, type: Int64)?
                let (streams, types) = (streams, types)
                let scanned = try store.scanAll(from: next, limit: wanted) { event in
                    guard let stream = streams.name(of: event.streamID), let type = types.name(of: event.typeID)
                    else {
                        unnamed = (event.position, event.streamID, event.typeID)
                        return false
                    }
                    stream.withUnsafeBufferPointer { stream in
                        type.withUnsafeBufferPointer { type in event.exportLine(stream: stream, type: type, into: &page)
                        }
                    }
                    page.append(0x0A)
                    rendered += 1
                    next = event.position + 1
                    return true
                }
                if let unnamed {
                    try learnNames(stream: unnamed.stream, type: unnamed.type)
                    next = unnamed.position
                } else if scanned < wanted {
                    atEnd = true
                    break
                }
            }
            if !page.isEmpty { try write(page) }
        }
    }

    /// Reads the name of stream `id` (with the page of streams after the last one read: new
    /// streams appear in id order) and of type `typeID`.
    private mutating func learnNames(stream id: Int64, type typeID: Int64) throws {
        while streams.name(of: id) == nil && id > streams.through {
            let page = try store.streamNames(fromID: streams.through + 1, limit: namePage)
            for (other, name) in page { streams.keep(name, for: other) }
            guard let last = page.last?.id else { break }
            streams.through = max(streams.through, last)
        }
        if streams.name(of: id) == nil { streams.keep(try store.streamName(id: id), for: id) }
        if types.name(of: typeID) == nil { types.keep(Array(try store.typeName(id: typeID).utf8), for: typeID) }
    }

    /// Every stream name read so far, by id: the names one after the other in one buffer and,
    /// per id, where its name starts and ends (stream ids are handed out in order, from 1), about
    /// 44 bytes a stream. Each scan meets the log's streams from anywhere in its history: a
    /// bounded cache would read old names again and again.
    private struct StreamNameTable {
        private var bytes: [UInt8] = []
        /// Per id: the start of its name in `bytes`, -1 when not read.
        private var starts: [Int32] = []
        private var ends: [Int32] = []
        /// The highest id of the pages of names read.
        var through: Int64 = 0

        func name(of id: Int64) -> ArraySlice<UInt8>? {
            guard id >= 0, id < starts.count, starts[Int(id)] >= 0 else { return nil }
            return bytes[Int(starts[Int(id)])..<Int(ends[Int(id)])]
        }

        mutating func keep(_ name: String, for id: Int64) {
            guard id >= 0, id < Int64(Int32.max) else { return }
            if Int(id) >= starts.count {
                let count = max(Int(id) + 1, 2 * starts.count)
                starts.append(contentsOf: repeatElement(-1, count: count - starts.count))
                ends.append(contentsOf: repeatElement(-1, count: count - ends.count))
            }
            starts[Int(id)] = Int32(clamping: bytes.count)
            bytes.append(contentsOf: name.utf8)
            ends[Int(id)] = Int32(clamping: bytes.count)
        }
    }
}
