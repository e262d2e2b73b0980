import JournalCore

/// The fold side of ``LogReplay``: the folds so far of the streams of one lane (the stream ids
/// equal to `lane` modulo `lanes`), fed one scanned batch at a time. Streams are independent, so
/// the lanes fold the same batch at once, each skipping the others' events. It never calls the
/// store; the names it needs come with the batches.
///
/// Used by one thread at a time: each batch's fold runs in a `BackgroundTask` (the fold handed
/// over with `HandOver`) that is waited for before the next one starts, and before the scanning
/// thread reads `entries`.
package final class LogReplayFold {
    /// Entries by the store's stream id divided by `lanes` (ids are dense from 1: a stream gets
    /// the next id when it is created): an array, changed in place, not a map whose entries are
    /// copied out and in.
    private(set) var entries: [LogReplay.Entry] = []
    let lane: Int64
    let lanes: Int64
    private var names: [Int64: String] = [:]
    private var types: [Int64: String] = [:]
    private let parser = JSONParser()

    init(lane: Int, of lanes: Int) {
        precondition(lanes > 0 && (0..<lanes).contains(lane), "a lane of at least one")
        self.lane = Int64(lane)
        self.lanes = Int64(lanes)
    }

    /// Moves the entries out (the run is over): the fold is empty after it.
    func takeEntries() -> [LogReplay.Entry] {
        var taken: [LogReplay.Entry] = []
        swap(&taken, &entries)
        return taken
    }

    /// The store's stream id of `entries[index]`.
    func streamID(ofEntry index: Int) -> Int64 { Int64(index) * lanes + lane }

    /// Folds the batch's events of this lane's streams into them, in position order.
    func fold(_ batch: LogReplayBatch) {
        var lastNamed: Int64 = -1
        var named = 0
        for (id, name) in batch.streamNames where id % lanes == lane {
            names[id] = name
            lastNamed = max(lastNamed, id)
            named += 1
        }
        // The entries of the streams just named, made at once: growing the array as their events
        // came copied it (and faulted in fresh pages) about twenty times at 40,000 streams. Ids
        // are dense, so no more than one entry per name (a damaged id far out waits for an event).
        if lastNamed >= 0 { grow(toHold: min(Int(lastNamed / lanes), entries.count + named)) }
        for (id, name) in batch.typeNames { types[id] = name }
        batch.withEachEvent { event, data in
            guard event.streamID % lanes == lane else { return }
            fold(event, data: data)
        }
    }

    /// Adds empty entries up to `index` at least, and by half the array at least (a log with more
    /// streams than a page of names grows it page by page).
    private func grow(toHold index: Int) {
        guard index >= entries.count else { return }
        entries.append(
            contentsOf: repeatElement(LogReplay.Entry(), count: max(index + 1 - entries.count, entries.count / 2)))
    }

    /// The stream id is in range: the scanning side checks it before it adds the event.
    private func fold(_ event: LogReplayBatch.Event, data bytes: UnsafeRawBufferPointer) {
        let index = Int(event.streamID / lanes)
        if index >= entries.count { grow(toHold: index) }
        if !entries[index].started {
            entries[index].started = true
            // The name is needed only to start the stream's fold (its category).
            guard let name = names.removeValue(forKey: event.streamID) else {
                preconditionFailure("a stream folded before it is named")
            }
            do {
                entries[index].fold = try StreamFold(stream: name)
            } catch {
                entries[index].failure = StreamReplay.Failure(version: 0, position: 0, reason: error.reason)
                return
            }
        }
        guard entries[index].failure == nil else { return }
        let version = entries[index].nextVersion
        entries[index].nextVersion += 1
        guard let type = types[event.typeID] else { preconditionFailure("an event folded before its type is named") }
        do {
            try entries[index].fold?.apply(
                type: type, dataBytes: bytes,
                occurredAt: Timestamp(millisecondsSinceEpoch: event.occurredAt), parser: parser)
        } catch {
            entries[index].failure = StreamReplay.Failure(
                version: version, position: event.position, reason: error.reason)
            return
        }
        entries[index].events += 1
    }
}
