/// A bounded map from stream name to its folded state and last version, so an import of any
/// size keeps memory bounded. When full, the least recently used half is dropped; a dropped
/// stream is folded again from the store when it comes back.
struct StreamStateCache {
    struct Entry {
        var fold: StreamFold
        /// The stream's last version (nil while the stream is empty).
        var lastVersion: Int64?
        fileprivate var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var tick: UInt64 = 0
    private(set) var evictions = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a cache needs room for one stream")
        self.capacity = capacity
    }

    var count: Int { entries.count }

    mutating func get(_ stream: String) -> (fold: StreamFold, lastVersion: Int64?)? {
        tick += 1
        guard entries[stream] != nil else { return nil }
        entries[stream]!.lastUse = tick
        let entry = entries[stream]!
        return (entry.fold, entry.lastVersion)
    }

    mutating func set(_ stream: String, fold: StreamFold, lastVersion: Int64?) {
        tick += 1
        if entries[stream] == nil && entries.count >= capacity { evictOldestHalf() }
        entries[stream] = Entry(fold: fold, lastVersion: lastVersion, lastUse: tick)
    }

    private mutating func evictOldestHalf() {
        let uses = entries.values.map(\.lastUse).sorted()
        let cutoff = uses[uses.count / 2]
        let before = entries.count
        entries = entries.filter { $0.value.lastUse > cutoff }
        evictions += before - entries.count
    }
}
