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
///
/// It also holds each committed stream's last version, by id: a load has no index on
/// `(stream_id, version)` either (finish() builds it), so the version of a stream that an earlier
/// transaction wrote is known only here. The ids of a new journal's streams are dense (SQLite
/// gives each new row the largest id plus one), so an array indexed by id: 8 bytes a stream.
struct NewJournalStreams {
    private var byHash: [Int: Int64] = [:]
    private var sharedHash: [StreamName: Int64] = [:]
    /// The last committed version of stream `id` at index `id`; -1 for none.
    private var versions: [Int64] = []
    private let hash: (StreamName) -> Int

    /// `hash` is the names' hash (tests pass one that collides).
    init(hash: @escaping (StreamName) -> Int = { $0.nameHash }) {
        self.hash = hash
    }

    /// The id that may belong to `name`: the one stream created with a name of this hash, or
    /// the stream of exactly this name among those whose hash was taken.
    func candidate(for name: StreamName) -> Int64? {
        if !sharedHash.isEmpty, let id = sharedHash[name] { return id }
        return byHash[hash(name)]
    }

    /// Records a new stream; `name` was looked up and not found.
    mutating func add(_ name: StreamName, id: Int64) {
        let key = hash(name)
        if byHash[key] == nil {
            byHash[key] = id
        } else {
            sharedHash[name] = id
        }
    }

    var count: Int { byHash.count + sharedHash.count }

    /// The last committed version of stream `id`; nil when no committed event has it.
    func lastVersion(of id: Int64) -> Int64? {
        guard id >= 0, id < versions.count else { return nil }
        let version = versions[Int(id)]
        return version < 0 ? nil : version
    }

    /// Records what a transaction committed: stream `id` now ends at `version` (nil: no events).
    mutating func committed(_ version: Int64?, of id: Int64) {
        guard id >= 0 else { return }
        let index = Int(id)
        if index >= versions.count {
            versions.append(contentsOf: repeatElement(-1, count: max(index + 1 - versions.count, versions.count / 2)))
        }
        versions[index] = version ?? -1
    }
}
