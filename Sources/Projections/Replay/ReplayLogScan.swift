import EventStore
import JournalCore

/// Feeds a ``ReplayRun`` the log in position order through the store's borrowing scan, which
/// checks every event's chain link as it goes (spec §4, §9): one pass over the log.
///
/// Two threads: a reading thread (``ReplayLogReader``) scans a page of the log into a
/// ``ReplayScanPage``, with the names of the streams that begin in it, while the calling thread
/// feeds the run the page read before (the run's ordered work, writing or comparing the record,
/// is the larger part of the calling thread's); the two take turns with a wait between, so the
/// store is used by one thread at a time and what the run is fed does not depend on them.
public struct ReplayLogScan {
    private let reader: ReplayLogReader

    public static let namePage = 65_536

    public init(store: any EventScanning, page: Int = 16_384) {
        precondition(page > 0, "a page holds at least one event")
        reader = ReplayLogReader(store: store, page: page, namePage: Self.namePage)
    }

    /// Feeds every event up to `untilPosition` (included) to `run`; `progress` gets the position
    /// reached after each page.
    /// - Throws: the store's errors (`.integrity` for an event whose link does not hold), after
    ///   the events before it are fed, and the run's (``ReplayRecordError``).
    public mutating func feed<Fold>(
        _ run: ReplayRun<Fold>, untilPosition: Int64 = .max, progress: (Int64) -> Void = { _ in }
    ) throws {
        try feedEvents(run, untilPosition: untilPosition, progress: progress)
    }

    /// ``feed(_:untilPosition:progress:)`` with the domain's rules: the run's per-event code is
    /// compiled for them here (a caller in another module would get the generic code, which
    /// looks up the fold's type at run time for every event).
    public mutating func feed(
        _ run: ReplayRun<DomainReplayFold>, untilPosition: Int64 = .max, progress: (Int64) -> Void = { _ in }
    ) throws {
        try feedEvents(run, untilPosition: untilPosition, progress: progress)
    }

    private mutating func feedEvents<Fold>(
        _ run: ReplayRun<Fold>, untilPosition: Int64, progress: (Int64) -> Void
    ) throws {
        var filled = ReplayScanPage()
        var spare = ReplayScanPage()
        var reading: BackgroundTask<Void>? = read(into: spare, from: 1, untilPosition: untilPosition)
        // The page being read is waited for before anything returns or throws: the store is then
        // free again, and the page no longer lent.
        defer { reading?.finish() }
        while let task = reading {
            task.finish()
            reading = nil
            swap(&filled, &spare)
            if let next = filled.next {
                reading = read(into: spare, from: next, untilPosition: untilPosition)
            }
            if let (error, position) = feed(filled, to: run) {
                reading?.finish()
                reading = nil
                // A stream's name is given only with its first event: read again for the message.
                if let key = error.unnamedStreamKey, let name = try? reader.store.streamName(id: key) {
                    throw ReplayRecordError.eventAfterEnd(position: position, stream: name, key: key)
                }
                throw error
            }
            if let failure = filled.failure { throw failure }
            if let last = filled.events.last?.position { progress(last) }
        }
    }

    /// Starts reading a page on the reading thread.
    private func read(into page: ReplayScanPage, from position: Int64, untilPosition: Int64) -> BackgroundTask<Void> {
        let reader = HandOver(reader)
        let page = HandOver(page)
        return BackgroundTask { reader.value.read(into: page.value, from: position, untilPosition: untilPosition) }
    }

    /// Feeds the run a page's events, in order; the run's error and the event's position, if one
    /// stops it.
    private func feed<Fold>(_ page: ReplayScanPage, to run: ReplayRun<Fold>) -> (ReplayRecordError, Int64)? {
        let typeNames = page.typeNames
        let types = page.types
        var failure: (ReplayRecordError, Int64)?
        page.withEachEvent { event, data in
            let type: String =
                event.typeID >= 0 && event.typeID < Int64(typeNames.count)
                ? typeNames[Int(event.typeID)] ?? "" : types[event.typeID] ?? ""
            let start = event.start
            do throws(ReplayRecordError) {
                try run.feed(
                    key: event.streamID, name: { start >= 0 ? page.starts[Int(start)].name : "" },
                    end: { start >= 0 ? page.starts[Int(start)].end : nil }, position: event.position, type: type,
                    typeKey: event.typeID, data: data, occurredAt: Timestamp(millisecondsSinceEpoch: event.occurredAt))
            } catch {
                failure = (error, event.position)
                return false
            }
            return true
        }
        return failure
    }
}
