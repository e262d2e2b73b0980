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

    /// Forgets everything: the next transaction reloads the tail.
    mutating func reset() {
        through = 0
        loadedThrough = -1
        positions.removeAll()
    }

    /// The index now covers `newThrough`: entries at or before it are dropped.
    mutating func indexed(through newThrough: Int64) {
        guard newThrough != through else { return }
        if newThrough >= loadedThrough {
            positions.removeAll(keepingCapacity: true)
        } else {
            positions = positions.filter { $0.value > newThrough }
        }
        through = newThrough
        loadedThrough = max(loadedThrough, newThrough)
    }

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
public struct IDIndexPolicy: Sendable, Equatable {
    public var minimum: Int64
    public var maximum: Int64

    public init(minimum: Int64 = 65_536, maximum: Int64 = 1_048_576) {
        self.minimum = max(1, minimum)
        self.maximum = max(self.minimum, maximum)
    }

    /// The tail length at which a copy is due, given how many positions the index covers.
    func threshold(indexed: Int64) -> Int64 {
        min(max(indexed / 8, minimum), maximum)
    }
}
