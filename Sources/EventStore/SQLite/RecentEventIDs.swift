/// The writer's memory of the log's tail: the id of every committed event whose position lies
/// after what `journal_event_ids` covers (`through`) and up to `loadedThrough`. Filled at the
/// start of each write transaction with what other processes committed, and at each commit with
/// what this one did; emptied when the tail is copied into the index. Its size is bounded by the
/// merge threshold (see `IDIndexPolicy`).
struct RecentEventIDs {
    /// Positions ≤ `through` are in `journal_event_ids`.
    private(set) var through: Int64 = 0
    /// Positions ≤ `loadedThrough` are known (in the index or in `positions`); -1: nothing loaded.
    private(set) var loadedThrough: Int64 = -1
    private(set) var positions: [EventIDKey: Int64] = [:]
    /// When present, holds every id of the index (positions ≤ `through`), perhaps more.
    private(set) var indexFilter: IndexedIDFilter?
    /// The filter was dropped because it held as many ids as it was built for.
    private(set) var indexFilterOutgrown = false

    /// Forgets everything: the next transaction reloads the tail.
    mutating func reset() {
        through = 0
        loadedThrough = -1
        positions.removeAll()
        indexFilter = nil
        indexFilterOutgrown = false
    }

    /// The index now covers `newThrough`: entries at or before it are dropped, into the filter.
    mutating func indexed(through newThrough: Int64) {
        guard newThrough != through else { return }
        if var filter = indexFilter {
            indexFilter = nil // one owner while it changes (no copy of its words)
            // Ids this memory never held joined the index (another writer copied further than
            // this one loaded), or the index went back: the filter no longer covers it.
            if newThrough > through, newThrough <= loadedThrough {
                for (key, position) in positions where position <= newThrough { filter.insert(key) }
                if filter.isFull { indexFilterOutgrown = true } else { indexFilter = filter }
            }
        }
        if newThrough >= loadedThrough {
            positions.removeAll(keepingCapacity: true)
        } else {
            positions = positions.filter { $0.value > newThrough }
        }
        through = newThrough
        loadedThrough = max(loadedThrough, newThrough)
    }

    /// A filter built from the index as it stands at `through`.
    mutating func setIndexFilter(_ filter: IndexedIDFilter) {
        indexFilter = filter
        indexFilterOutgrown = false
    }

    /// False when the id is certainly not in the index.
    func indexMayContain(_ key: EventIDKey) -> Bool { indexFilter?.mayContain(key) ?? true }

    mutating func add(_ key: EventIDKey, position: Int64) {
        positions[key] = position
    }

    mutating func loaded(through position: Int64) {
        loadedThrough = max(loadedThrough, position)
    }

    mutating func remove(_ key: EventIDKey) {
        positions[key] = nil
    }

    func position(of key: EventIDKey) -> Int64? { positions[key] }
}

/// When the writer copies the tail's ids into `journal_event_ids`: once the tail holds an eighth
/// of what the index already covers, between `minimum` and `maximum` events. Copying n sorted ids
/// into an index of p pages dirties at most min(n, p) pages, so a larger batch costs fewer page
/// writes per event; the bounds keep the writer's memory (~50 bytes an id) and the pause of one
/// copy (a sort and an insert of n rows, inside one commit) in check.
///
/// A writer that has looked up many new ids in the index (`filterMinimumProbes`, and a sixteenth
/// of the ids the index holds) builds an `IndexedIDFilter` of them, about 2.5 bytes an indexed
/// id, and from then on asks SQLite only about ids the filter may hold. Building it reads the
/// index once, in order, which costs a fraction of a random lookup per id (BENCHMARKS.md,
/// "Append path"), so the sixteenth of the lookups already paid for about as much as the build.
public struct IDIndexPolicy: Sendable, Equatable {
    public var minimum: Int64
    public var maximum: Int64
    /// Index lookups before a writer builds the filter (0: never).
    public var filterMinimumProbes: Int64
    /// Ids the smallest filter has room for (it is built for twice the index, at least this).
    public var filterMinimumCapacity: Int

    public init(
        minimum: Int64 = 65_536, maximum: Int64 = 1_048_576, filterMinimumProbes: Int64 = 4_096,
        filterMinimumCapacity: Int = 65_536
    ) {
        self.minimum = max(1, minimum)
        self.maximum = max(self.minimum, maximum)
        self.filterMinimumProbes = max(0, filterMinimumProbes)
        self.filterMinimumCapacity = max(1, filterMinimumCapacity)
    }

    /// Whether a writer that has made `probes` index lookups should build the filter.
    func buildsFilter(probes: Int64, indexed: Int64) -> Bool {
        filterMinimumProbes > 0 && probes >= max(filterMinimumProbes, indexed / 16)
    }

    /// The tail length at which a copy is due, given how many positions the index covers.
    func threshold(indexed: Int64) -> Int64 {
        min(max(indexed / 8, minimum), maximum)
    }
}
