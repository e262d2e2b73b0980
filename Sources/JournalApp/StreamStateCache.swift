import Domain

/// A bounded map from stream name to its folded state and last version, so an import of any
/// size keeps memory bounded. When full, the least recently used half is dropped; a dropped
/// stream is folded again from the store when it comes back. A cache that remembers what it
/// drops (for a load, which cannot fold a stream again) drops the ended journeys first.
package struct StreamStateCache {
    package struct Entry {
        var fold: StreamFold
        /// The stream's last version (nil while the stream is empty).
        var lastVersion: Int64?
        fileprivate var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var tick: UInt64 = 0
    private(set) var evictions = 0
    /// The hashes of the streams dropped so far, when asked for (`remembersDropped`): for a
    /// writer that cannot fold a stream again, 8 bytes a stream instead of its state.
    private var dropped: Set<Int>?

    init(capacity: Int, remembersDropped: Bool = false) {
        precondition(capacity > 0, "a cache needs room for one stream")
        self.capacity = capacity
        if remembersDropped { dropped = [] }
    }

    /// Whether `stream` may have been dropped (a hash collision can say yes for a stream that
    /// never was); always false unless the cache remembers what it drops.
    func mayHaveDropped(_ stream: String) -> Bool {
        dropped?.contains(stream.hashValue) ?? false
    }

    var count: Int { entries.count }

    // One hash of the name per call: a name is hashed whole, and an import asks twice a line.
    mutating func get(_ stream: String) -> (fold: StreamFold, lastVersion: Int64?)? {
        tick += 1
        guard let index = entries.index(forKey: stream) else { return nil }
        entries.values[index].lastUse = tick
        let entry = entries.values[index]
        return (entry.fold, entry.lastVersion)
    }

    mutating func set(_ stream: String, fold: StreamFold, lastVersion: Int64?) {
        tick += 1
        if entries.count >= capacity && entries.index(forKey: stream) == nil { evictOldestHalf() }
        entries[stream] = Entry(fold: fold, lastVersion: lastVersion, lastUse: tick)
    }

    private mutating func evictOldestHalf() {
        let before = entries.count
        defer { evictions += before - entries.count }
        if dropped != nil {
            // A writer that cannot fold a stream again drops the ended journeys first: nothing
            // may follow their last event, so one that comes back is refused whatever it holds.
            for (stream, entry) in entries where entry.fold.state.isTerminal { dropped?.insert(stream.hashValue) }
            entries = entries.filter { !$0.value.fold.state.isTerminal }
            if entries.count <= capacity / 2 { return }
        }
        let uses = entries.values.map(\.lastUse).sorted()
        let cutoff = uses[uses.count / 2]
        if dropped != nil {
            for (stream, entry) in entries where entry.lastUse <= cutoff { dropped?.insert(stream.hashValue) }
        }
        entries = entries.filter { $0.value.lastUse > cutoff }
    }
}
