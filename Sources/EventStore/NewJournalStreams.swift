/// Every stream of a journal being loaded (`SQLiteJournalLoad`), found by name without an index.
///
/// A load creates `journal_streams` without its unique index on names and builds that index
/// when it finishes, in one sorted pass: one random insert into an index of 40-byte names per new
/// stream was the load's largest cost after the events themselves. Until then this map is how
/// the writer knows whether a name exists: the hash of each name to its stream id, and the names
/// whose hash was already taken, by name. 16 bytes or so per stream (≈ 30 MB for the 1.75 M
/// streams of a 10 M-event simulation).
///
/// A hit is a candidate, not an answer: the caller confirms it by reading the stream's name by
/// id. That also makes entries of rolled-back streams harmless: their id no longer has that
/// name (no row, or another stream's), so they are never confirmed, and are not removed.
struct NewJournalStreams {
    private var byHash: [Int: Int64] = [:]
    private var sharedHash: [String: Int64] = [:]
    private let hash: (String) -> Int

    /// `hash` is the names' hash (tests pass one that collides).
    init(hash: @escaping (String) -> Int = { $0.hashValue }) {
        self.hash = hash
    }

    /// The id that may belong to `name`: the one stream created with a name of this hash, or
    /// the stream of exactly this name among those whose hash was taken.
    func candidate(for name: String) -> Int64? {
        if !sharedHash.isEmpty, let id = sharedHash[name] { return id }
        return byHash[hash(name)]
    }

    /// Records a new stream; `name` was looked up and not found.
    mutating func add(_ name: String, id: Int64) {
        let key = hash(name)
        if byHash[key] == nil {
            byHash[key] = id
        } else {
            sharedHash[name] = id
        }
    }

    var count: Int { byHash.count + sharedHash.count }
}
