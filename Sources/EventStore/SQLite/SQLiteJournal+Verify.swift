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
        var walk = LogWalk(
            chain: ScanChainCheck(
                from: 1, previousHash: nil, limit: Int(clamping: head.position),
                mismatch: "the stored hash does not match the event's content and the previous hash"),
            tree: checkTree ? TreeVerifier(hasher: hasher) : nil)
        let storedTile = { (level: Int, index: Int64) throws(EventStoreError) -> [UInt8] in
            try self.treeTile(level: level, index: index)
        }
        let statement = try run("reading the log") { () throws(SQLiteError) in
            try sql.cached("SELECT \(Self.columns) FROM journal_events ORDER BY position")
        }
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
        let report = try walk.finish(headPosition: head.position, headHash: head.hash)
        try walk.tree?.finish(storedTile: storedTile)
        if !legacyIDIndex { try verifyIDIndex(headPosition: head.position) }
        if checkEnds { try verifyStreamEnds(walk, headPosition: report.headPosition) }
        return report
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

        init(chain: ScanChainCheck, tree: TreeVerifier?) {
            self.chain = chain
            self.chain.keepsLeafHashes = tree != nil
            self.tree = tree
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
            let expectedVersion = nextVersion(of: streamID)
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
            guard tree != nil else { return }
            chain.takeLeafHashes(into: &leaves)
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

        private func nextVersion(of streamID: Int64) -> Int64 {
            if streamID >= 0 && streamID < Int64(versions.count) {
                let next = versions[Int(streamID)]
                return next < 0 ? 0 : next
            }
            return otherEnds[streamID].map { $0.version + 1 } ?? 0
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
                    // Ends kept aside while their ids lay beyond the arrays move in, or the
                    // arrays would answer "no event yet" for a stream the walk has met.
                    for (id, kept) in otherEnds where id >= 0 && id < Int64(versions.count) {
                        versions[Int(id)] = kept.version + 1
                        lastPositions[Int(id)] = kept.position
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
