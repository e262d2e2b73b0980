import EventStore
import JournalCore

/// `journal export` of the log from a position on, over the store's borrowing scan: each line is
/// rendered from the fields the scan lends (no `RecordedEvent`, no string per event), a page at
/// a time. A page is written only once the scan returned, that is once it checked every event's
/// chain link in it (contract §4): no line of an event whose hash does not check is printed, and
/// the pages before the failing one are printed as `readAll` pages would be.
///
/// Stream and type names are kept by id in direct-mapped slots, filled a page of streams at a
/// time as the scan meets ids it does not know (stream ids grow as streams are created, so a
/// stretch of the log uses ids close to each other); memory stays bounded on any log.
struct LogExport {
    private let store: any EventScanning
    private let pageSize: Int
    private let namePage: Int
    private var streams = Slots()
    private var types = Slots()

    /// Stream names read at a time.
    static let namePage = 4_096

    /// - Parameters:
    ///   - pageSize: events per page written (the page size of `readAll` it stands for).
    ///   - namePage: stream names read at once (tests read a few at a time to meet many ids).
    init(store: any EventScanning, pageSize: Int, namePage: Int = LogExport.namePage) {
        self.store = store
        self.pageSize = max(1, pageSize)
        self.namePage = max(1, namePage)
    }

    /// Writes the line of every event from `position` on, one page of lines at a time.
    mutating func run(from position: Int64, write: ([UInt8]) throws -> Void) throws {
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

    /// Reads the name of stream `id` with the page of streams after it, and of type `typeID`.
    private mutating func learnNames(stream id: Int64, type typeID: Int64) throws {
        if streams.name(of: id) == nil {
            let names = try store.streamNames(fromID: id, limit: namePage)
            for (other, name) in names { streams.keep(Array(name.utf8), for: other) }
            if streams.name(of: id) == nil { streams.keep(Array(try store.streamName(id: id).utf8), for: id) }
        }
        if types.name(of: typeID) == nil { types.keep(Array(try store.typeName(id: typeID).utf8), for: typeID) }
    }

    /// Names by id in 65,536 direct-mapped slots (an id's low bits choose its slot).
    private struct Slots {
        private var slots: [(id: Int64, name: [UInt8])?] = []

        func name(of id: Int64) -> [UInt8]? {
            guard !slots.isEmpty, let entry = slots[Self.slot(id)], entry.id == id else { return nil }
            return entry.name
        }

        mutating func keep(_ name: [UInt8], for id: Int64) {
            if slots.isEmpty { slots = Array(repeating: nil, count: 1 << 16) }
            slots[Self.slot(id)] = (id, name)
        }

        private static func slot(_ id: Int64) -> Int { Int(truncatingIfNeeded: id) & (1 << 16 - 1) }
    }
}
