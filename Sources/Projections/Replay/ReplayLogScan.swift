import EventStore
import JournalCore

/// Feeds a ``ReplayRun`` the log in position order through the store's borrowing scan, which
/// checks every event's chain link as it goes (spec §4, §9): one pass over the log.
///
/// Two threads: a reading thread (``ReplayLogReader``) scans pages of the log into
/// ``ReplayScanPage``s, with the names of the streams that begin in them, up to
/// ``pagesAhead`` ahead, while the calling thread feeds the run the pages read before (the run's
/// ordered work, writing or comparing the record, is the larger part of the calling thread's);
/// the store is used by the reading thread alone, and what the run is fed does not depend on the
/// threads.
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
        // Pages read ahead: each read starts where the page before it ended (read before it on
        // the same thread), so the reading thread reads on while this thread feeds the run.
        let pages = (0...Self.pagesAhead).map { _ in ReplayScanPage() }
        let worker = WorkerThread()
        var tickets = [Int](repeating: 0, count: pages.count)
        for index in 0..<Self.pagesAhead {
            tickets[index] = read(
                into: pages[index], after: index == 0 ? nil : pages[index - 1], untilPosition: untilPosition,
                on: worker)
        }
        // The pages being read are waited for before anything returns or throws: the store is
        // then free again, and the pages no longer lent.
        defer { worker.wait() }
        var current = 0
        while true {
            worker.wait(for: tickets[current])
            let filled = pages[current]
            let newest = (current + Self.pagesAhead - 1) % pages.count
            let free = (current + Self.pagesAhead) % pages.count
            tickets[free] = read(into: pages[free], after: pages[newest], untilPosition: untilPosition, on: worker)
            if let (error, position) = feed(filled, to: run) {
                worker.wait()
                // A stream's name is given only with its first event: read again for the message.
                if let key = error.unnamedStreamKey, let name = try? reader.store.streamName(id: key) {
                    throw ReplayRecordError.eventAfterEnd(position: position, stream: name, key: key)
                }
                throw error
            }
            if let failure = filled.failure { throw failure }
            if let last = filled.events.last?.position { progress(last) }
            if filled.next == nil { return }
            current = (current + 1) % pages.count
        }
    }

    /// Pages the reading thread may read ahead of the one being fed.
    static var pagesAhead: Int { 2 }

    /// Starts reading a page on the reading thread, from where `previous` ended (the log's
    /// start without one); returns its ticket. A page after the log's end, or after a page whose
    /// reading failed, is empty, with nothing to read next.
    private func read(
        into page: ReplayScanPage, after previous: ReplayScanPage?, untilPosition: Int64, on worker: WorkerThread
    ) -> Int {
        let reader = HandOver(reader)
        let page = HandOver(page)
        let previous = HandOver(previous)
        return worker.start {
            let from: Int64? =
                if let previous = previous.value { previous.failure == nil ? previous.next : nil } else { 1 }
            guard let from else { return page.value.removeAll() }
            reader.value.read(into: page.value, from: from, untilPosition: untilPosition)
        }
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
