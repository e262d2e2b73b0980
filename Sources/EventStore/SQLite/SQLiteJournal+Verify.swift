import JournalCore

extension SQLiteJournal {
    /// Walks the whole log in one read transaction (a consistent snapshot) and checks the rule
    /// written in `ChainHasher.swift` (`ChainVerifier`), then that the stored Merkle tree is the
    /// tree of the log (`TreeVerifier`). Throws `.integrity` with the first bad position.
    func verify(progress: (_ checked: Int64) -> Void = { _ in }) throws(EventStoreError) -> VerifyReport {
        let inTransaction = write != nil
        if !inTransaction {
            try run("starting a read transaction") { () throws(SQLiteError) in try sql.begin(.deferred) }
        }
        defer { if !inTransaction { sql.rollback() } }

        // Inside a write transaction (a `:memory:` journal read from `write { }`), its gathered
        // leaves go into the tiles first, or the tree is not checked (under a savepoint).
        var checkTree = hasTree
        if let state = write, !state.leafHashes.isEmpty {
            if state.savepoints == 0 { try flushTree() } else { checkTree = false }
        }
        // Likewise the ends of the streams it appended to.
        var checkEnds = hasStreamEnds
        if let state = write, !state.ends.isEmpty {
            if state.savepoints == 0 { try writeStreamEnds() } else { checkEnds = false }
        }
        let head = try self.head()
        let storedTile = { (level: Int, index: Int64) throws(EventStoreError) -> [UInt8] in
            try self.treeTile(level: level, index: index)
        }
        // A second connection sees the same file only for a journal on disk.
        let onDisk = !(path.isEmpty || path == ":memory:")
        let split = inTransaction || !onDisk ? nil : Self.rangeSplit(head: head.position)
        var walk: LogWalk
        if let split,
            let joined = try walkInRanges(
                head: head.position, split: split, checkTree: checkTree, progress: progress, storedTile: storedTile)
        {
            walk = joined
        } else {
            walk = LogWalk(
                chain: ScanChainCheck(
                    from: 1, previousHash: nil, limit: Int(clamping: head.position), mismatch: Self.verifyMismatch),
                tree: checkTree ? TreeVerifier(hasher: hasher) : nil, keepsLeaves: checkTree)
            try walkRows(
                &walk, "SELECT \(Self.columns) FROM journal_events ORDER BY position", progress: progress,
                storedTile: storedTile)
        }
        let report = try walk.finish(headPosition: head.position, headHash: head.hash)
        try walk.tree?.finish(storedTile: storedTile)
        if !legacyIDIndex { try verifyIDIndex(headPosition: head.position) }
        if checkEnds { try verifyStreamEnds(walk, headPosition: report.headPosition) }
        return report
    }

    static let verifyMismatch = "the stored hash does not match the event's content and the previous hash"

    /// Where `verify` splits a log of `head` events into two ranges, one a thread (nil: one
    /// range). The first range's thread also holds every leaf to the stored tree, so it reads
    /// less: two fifths, at a tile boundary.
    static func rangeSplit(head: Int64) -> Int64? {
        guard head >= rangeSplitMinimum else { return nil }
        let split = head * 2 / 5 / 65_536 * 65_536
        return split > 0 ? split : nil
    }

    /// Logs shorter than this are walked as one range.
    static let rangeSplitMinimum: Int64 = 1 << 18

    /// Reads the rows of `sql` into `walk`, feeding the tree every 4,096 rows.
    private func walkRows(
        _ walk: inout LogWalk, _ sql: String, bind: (SQLiteStatement) -> Void = { _ in },
        progress: (_ checked: Int64) -> Void, storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8]
    ) throws(EventStoreError) {
        let statement = try run("reading the log") { () throws(SQLiteError) in try self.sql.cached(sql) }
        bind(statement)
        defer { statement.reset() }
        var scratch: [UInt8] = []
        swap(&scratch, &payloadScratch)
        defer { swap(&scratch, &payloadScratch) }
        while try run("reading the log", { () throws(SQLiteError) in try statement.step() }) {
            do throws(EventStoreError) {
                try walk.add(statement, journal: self, scratch: &scratch)
            } catch {
                // An earlier event whose link is still being hashed fails first.
                try walk.chain.finish()
                throw error
            }
            if walk.checked & 0xFFF == 0 {
                progress(walk.checked)
                try walk.feedTree(storedTile: storedTile)
            }
        }
        try walk.chain.finish()
        try walk.feedTree(storedTile: storedTile)
    }

    /// The walk of positions 1…`split` on this connection, while another thread walks
    /// `split`+1…`head` on a connection of its own; joined into one walk, or nil when the later
    /// range did not check (or the log is not as the head says): the whole log is then walked
    /// again as one range, which names the first bad position as it always has.
    private func walkInRanges(
        head: Int64, split: Int64, checkTree: Bool, progress: (_ checked: Int64) -> Void,
        storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8]
    ) throws(EventStoreError) -> LogWalk? {
        let path = self.path
        let configuration = self.configuration
        let later = BackgroundTask { () -> HandOver<LogWalk>? in
            do {
                return try SQLiteJournal.walkLaterRange(
                    path: path, configuration: configuration, after: split, through: head, keepsLeaves: checkTree)
            } catch {
                return nil
            }
        }
        var walk = LogWalk(
            chain: ScanChainCheck(from: 1, previousHash: nil, limit: Int(clamping: split), mismatch: Self.verifyMismatch),
            tree: checkTree ? TreeVerifier(hasher: hasher) : nil, keepsLeaves: checkTree)
        do throws(EventStoreError) {
            try walkRows(
                &walk, "SELECT \(Self.columns) FROM journal_events WHERE position <= ? ORDER BY position",
                bind: { $0.bind(split, at: 1) }, progress: progress, storedTile: storedTile)
        } catch {
            later.finish()
            throw error
        }
        guard let rest = later.wait()?.value, walk.checked == split,
            try run("reading the end of the log", { () throws(SQLiteError) in
                try sql.scalarInt("SELECT max(position) FROM journal_events")
            }) == head,
            try walk.join(rest, storedTile: storedTile)
        else { return nil }
        progress(walk.checked)
        return walk
    }

    /// Walks positions `after`+1…`through` on a connection of its own; nil when they do not
    /// check (the caller walks the whole log again).
    private static func walkLaterRange(
        path: String, configuration: SQLiteEventStore.Configuration, after: Int64, through: Int64, keepsLeaves: Bool
    ) throws(EventStoreError) -> HandOver<LogWalk>? {
        let journal = try SQLiteJournal(path: path, configuration: configuration, writer: false)
        defer { journal.close() }
        try journal.run("starting a read transaction") { () throws(SQLiteError) in try journal.sql.begin(.deferred) }
        defer { journal.sql.rollback() }
        var walk = LogWalk(
            chain: ScanChainCheck(
                from: after + 1, previousHash: try journal.storedHash(at: after),
                limit: Int(clamping: through - after), mismatch: verifyMismatch),
            tree: nil, keepsLeaves: keepsLeaves, after: after)
        try journal.walkRows(
            &walk, "SELECT \(columns) FROM journal_events WHERE position > ? AND position <= ? ORDER BY position",
            bind: { statement in
                statement.bind(after, at: 1)
                statement.bind(through, at: 2)
            }, progress: { _ in }, storedTile: { (_: Int, _: Int64) throws(EventStoreError) -> [UInt8] in [] })
        return walk.checked == through ? HandOver(walk) : nil
    }

    /// The walk of `verify()` over the rows in position order: positions without gaps and each
    /// stream's versions from 0 without gaps, checked here as the rows come; each event's chain
    /// link and its leaf hash on another thread (`ScanChainCheck`, a batch of links at a time, as
    /// the tree's upgrade does), the leaf hashes then held to the stored tree (`TreeVerifier`).
    private struct LogWalk {
        var chain: ScanChainCheck
        var tree: TreeVerifier?
        private(set) var checked: Int64 = 0
        /// The next version of each stream, by stream id (ids are dense from 1); −1: none yet.
        private var versions: [Int64] = []
        /// The position of each stream's last event so far, beside `versions`.
        private var lastPositions: [Int64] = []
        /// Ends of ids too large for the arrays (only a damaged row has one).
        private var otherEnds: [Int64: StreamEnd] = [:]
        private var streams: Int64 = 0
        /// The stored hash of the last row (the chain's start before the first).
        private var lastHash = ChainHasher.zeroHash
        private var leaves: [UInt8] = []
        /// Names read from the file for this walk only (a name changed behind the journal's back
        /// fails its events' links, whatever an earlier read of this connection saw).
        private let streamNames = SQLiteJournal.newLinkStreamNames()
        private let typeNames = SQLiteJournal.newLinkTypeNames()

        /// For a range after the first (`after` > 0): the first version and position of each
        /// stream it meets, which the range before it must lead up to (`join`).
        private var firsts: [(streamID: Int64, version: Int64, position: Int64)] = []
        private let startsAfterAnother: Bool

        /// `keepsLeaves`: the chain check makes each event's leaf hash, for `tree` or, in a
        /// later range, for the tree of the range before it. `after`: the position before the
        /// range's first.
        init(chain: ScanChainCheck, tree: TreeVerifier?, keepsLeaves: Bool, after: Int64 = 0) {
            self.chain = chain
            self.chain.keepsLeafHashes = keepsLeaves
            self.tree = tree
            checked = after
            startsAfterAnother = after > 0
        }

        /// Takes the walk of the range right after this one: each stream there must go on from
        /// the version this walk ends it at (false when one does not), its leaves go to the tree.
        mutating func join(_ later: LogWalk, storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8])
            throws(EventStoreError) -> Bool
        {
            for first in later.firsts where (nextVersion(of: first.streamID) ?? 0) != first.version { return false }
            for (index, next) in later.versions.enumerated() where next >= 0 {
                setEnd(StreamEnd(version: next - 1, position: later.lastPositions[index]), of: Int64(index))
            }
            for (streamID, end) in later.otherEnds { setEnd(end, of: streamID) }
            try tree?.add(leafHashes: later.leaves, storedTile: storedTile)
            lastHash = later.lastHash
            checked = later.checked
            return true
        }

        /// Checks the row's position and version, and hands its link to the chain check.
        mutating func add(_ statement: SQLiteStatement, journal: SQLiteJournal, scratch: inout [UInt8])
            throws(EventStoreError)
        {
            let position = statement.int64(at: 0)
            try ChainVerifier.checkPosition(position, expected: checked + 1)
            let streamID = statement.int64(at: 1)
            let version = statement.int64(at: 2)
            // As `ChainVerifier` orders them: a payload that does not decode, then a wrong
            // version, then a wrong hash (a row with a wrong version is not hashed).
            let next = nextVersion(of: streamID)
            if next == nil && startsAfterAnother { firsts.append((streamID, version, position)) }
            let expectedVersion = next ?? (startsAfterAnother ? version : 0)
            let versionHolds = version == expectedVersion
            try journal.addLink(
                of: statement, to: &chain, streams: streamNames, types: typeNames, scratch: &scratch,
                checked: versionHolds)
            guard versionHolds else {
                let stream = try journal.streamName(of: streamID)
                throw .integrity(
                    at: position, "stream \(stream) has version \(version) here, expected \(expectedVersion)")
            }
            setEnd(StreamEnd(version: version, position: position), of: streamID)
            lastHash = statement.blob(at: 11)
            checked = position
        }

        /// Holds the leaf hashes made so far to the stored tree.
        mutating func feedTree(storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8])
            throws(EventStoreError)
        {
            guard chain.keepsLeafHashes else { return }
            chain.takeLeafHashes(into: &leaves)
            // A later range keeps its leaves for the tree of the range before it.
            guard tree != nil else { return }
            try tree?.add(leafHashes: leaves, storedTile: storedTile)
            leaves.removeAll(keepingCapacity: true)
        }

        /// After the last row: the journal head must be the last event.
        func finish(headPosition: Int64, headHash: [UInt8]) throws(EventStoreError) -> VerifyReport {
            try ChainVerifier.checkHead(
                headPosition: headPosition, headHash: headHash, last: checked, lastHash: lastHash)
            return VerifyReport(
                events: checked, streams: streams, headPosition: checked,
                headHash: checked == 0 ? "" : lastHash.hexString)
        }

        /// The version the next event of `streamID` must have; nil before its first.
        private func nextVersion(of streamID: Int64) -> Int64? {
            if streamID >= 0 && streamID < Int64(versions.count) {
                let next = versions[Int(streamID)]
                return next < 0 ? nil : next
            }
            return otherEnds[streamID].map { $0.version + 1 }
        }

        /// The last event of stream `streamID` the walk has met (nil: none).
        func end(of streamID: Int64) -> StreamEnd? {
            if streamID >= 0 && streamID < Int64(versions.count) {
                let next = versions[Int(streamID)]
                return next < 0 ? nil : StreamEnd(version: next - 1, position: lastPositions[Int(streamID)])
            }
            return otherEnds[streamID]
        }

        private mutating func setEnd(_ end: StreamEnd, of streamID: Int64) {
            if streamID >= 0 && streamID < Int64(versions.count) + 65_536 {
                if streamID >= Int64(versions.count) {
                    let grow = max(Int(streamID) + 1 - versions.count, versions.count / 2)
                    versions.append(contentsOf: repeatElement(-1, count: grow))
                    lastPositions.append(contentsOf: repeatElement(0, count: grow))
                    // Ends kept aside while their ids were beyond the arrays move in (a later
                    // range meets stream ids far from 1 first).
                    for (id, end) in otherEnds where id >= 0 && id < Int64(versions.count) {
                        versions[Int(id)] = end.version + 1
                        lastPositions[Int(id)] = end.position
                        otherEnds[id] = nil
                    }
                }
                if versions[Int(streamID)] < 0 { streams += 1 }
                versions[Int(streamID)] = end.version + 1
                lastPositions[Int(streamID)] = end.position
            } else {
                if otherEnds[streamID] == nil { streams += 1 }
                otherEnds[streamID] = end
            }
        }
    }

    /// Every stream's recorded end (`journal_streams.last_version`, `last_position`) must be its
    /// last event as the walk found it: bookkeeping changed behind the store's back would make
    /// readers hold a stream to an end it does not have, or miss events cut from its end.
    private func verifyStreamEnds(_ walk: LogWalk, headPosition: Int64) throws(EventStoreError) {
        let check = try run("reading the streams' last events") { () throws(SQLiteError) in
            let statement = try sql.cached(
                "SELECT id, name, last_version, last_position FROM journal_streams ORDER BY id")
            defer { statement.reset() }
            var check = StreamEnd.Check(head: headPosition)
            while try statement.step() {
                let recorded =
                    statement.isNull(at: 2) || statement.isNull(at: 3)
                    ? nil : StreamEnd(version: statement.int64(at: 2), position: statement.int64(at: 3))
                let stored = walk.end(of: statement.int64(at: 0))
                if recorded != stored { check.add(stream: statement.text(at: 1), recorded: recorded, stored: stored) }
            }
            return check
        }
        try check.finish()
    }

    /// The id index must cover exactly positions 1…through, one row each (rows removed or added
    /// behind the store's back would let a duplicate id in, or refuse a new one).
    private func verifyIDIndex(headPosition: Int64) throws(EventStoreError) {
        let (through, rows) = try run("reading the event id index") { () throws(SQLiteError) in
            (
                try sql.scalarInt("SELECT through FROM journal_id_index WHERE singleton = 1") ?? -1,
                try sql.scalarInt("SELECT count(*) FROM journal_event_ids") ?? -1
            )
        }
        if through > headPosition {
            throw .integrity(
                at: headPosition + 1,
                "the event id index covers the events up to position \(through), but the log ends at position "
                    + "\(headPosition): events after position \(headPosition) are gone")
        }
        guard through >= 0, rows == through else {
            throw EventStoreError(
                code: .integrity,
                message:
                    "\(path): the event id index should hold the \(through) events it covers (head "
                    + "\(headPosition)) but holds \(rows)"
            )
        }
    }
}
