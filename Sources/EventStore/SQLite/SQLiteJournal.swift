import JournalCore

/// One SQLite connection to a journal, with its caches and its scratch buffers: the engine behind
/// `SQLiteEventStore`. Not thread-safe; the store serializes every use (see `SQLiteEventStore`).
///
/// Caches hold only committed, immutable facts (a stream name's id, a type's id, a dictionary),
/// so they stay valid when other processes write to the same file. Anything learned inside a
/// write transaction lives in `WriteState` until the commit.
final class SQLiteJournal {
    let sql: SQLiteConnection
    let configuration: SQLiteEventStore.Configuration
    let path: String
    let hasher: ChainHasher

    // Committed caches.
    var streamIDs: [StreamName: Int64] = [:]
    var streamNames: [Int64: StreamName] = [:]
    var typeIDs: [String: Int64] = [:]
    var typeNames: [Int64: String] = [:]
    var dictionaries: [Int64: LZ4Dictionary] = [:]
    /// A journal being loaded has no index on stream names yet: its writer finds them here.
    var newJournalStreams: NewJournalStreams?
    /// A journal load's ids, in sorted runs for `finish()`.
    var loadIDs: LoadEventIDs?
    /// A journal load's trained dictionary, for the preparers of its batches (`LoadPreparer`).
    var publishedDictionary: PublishedDictionary?
    /// A journal load's writer: the head hash, then the hash of the event being written.
    var chainHash = [UInt8](repeating: 0, count: 64)
    /// Chain hashes a journal load took from its preparer (for tests).
    var hashesTakenAhead = 0
    /// A journal load's event rows waiting to be written many to a statement.
    let pendingRows = PendingEventRows()
    static let streamCacheLimit = 100_000

    /// Set when the first events give no material for a dictionary (all payloads empty).
    var dictionaryTrainingSkipped = false

    var streamNameSlots = NameSlots<StreamName>()
    /// The highest stream id `streamName(of:)` has read with a page of names after it: an id at
    /// or below it that the slots lost is read alone.
    var streamNamesPagedThrough: Int64 = 0
    /// Stream names `streamName(of:)` has read alone because the slots lacked them: the first few
    /// misses read one name each (a command that reads one event, such as `prove`, wants one), and
    /// paging starts once a reader keeps missing (a log read in position order).
    var streamNamesReadAlone = 0
    var typeNameSlots = NameSlots<String>()
    /// Stream and type names as scans' chain checks spell them, kept from scan to scan (a log
    /// read in pages meets the same streams in every page); only committed names.
    let linkStreamNames = SQLiteJournal.newLinkStreamNames()
    let linkTypeNames = SQLiteJournal.newLinkTypeNames()
    static func newLinkStreamNames() -> LinkNames { LinkNames(slotCount: 1 << 16, byteLimit: 4 << 20) }
    static func newLinkTypeNames() -> LinkNames { LinkNames(slotCount: 1 << 8, byteLimit: 64 << 10) }

    /// Prepared statements of `Hot`, by raw value.
    var hotStatements = [SQLiteStatement?](repeating: nil, count: Hot.allCases.count)

    /// Present while this connection holds a write transaction.
    var write: WriteState?
    /// The ids of the committed log tail not yet in `journal_event_ids` (writer only).
    var recentIDs = RecentEventIDs()
    /// Lookups of new ids in `journal_event_ids` since this writer last had a filter of it.
    var indexProbes: Int64 = 0
    /// A version 1 journal opened read-only: ids are found through its unique index on
    /// `journal_events(event_id)`, and there is no id index to verify.
    var legacyIDIndex = false
    /// False for a journal of schema version 1 or 2 opened read-only: it has no Merkle tree to
    /// verify.
    var hasTree = true
    /// False for a journal of schema version 3 or older opened read-only: it records no stream
    /// ends (`StreamEnd`) for reads and `verify` to hold the events to.
    var hasStreamEnds = true
    /// The file keeps no full leaf tile: a commit that fills one removes it (its root is in the
    /// tile above), and a read of it hashes its 256 events again. Files whose tree triggers allow
    /// removing one (new ones); older files keep every tile.
    var elidesLeafTiles = false

    // Scratch buffers reused by encode/decode.
    var payloadScratch: [UInt8] = []
    var compressScratch: [UInt8] = []

    /// What a write transaction learned and has not committed yet. Changes made under a savepoint
    /// are logged in `undo`, so rolling back to the savepoint costs only what it undoes (a copy of
    /// the whole state per savepoint would make a transaction of n appends cost O(n²)).
    struct WriteState {
        var headPosition: Int64
        var headHash: [UInt8]
        /// The leaves already in `journal_tree` (the head when the transaction began, until
        /// `flushTree()` moves them there), and the leaf hashes of the events after them.
        var treeSize: Int64
        var leafHashes: [UInt8] = []
        private(set) var newStreams: [StreamName: Int64] = [:]
        private(set) var newStreamNames: [Int64: StreamName] = [:]
        private(set) var newTypes: [String: Int64] = [:]
        private(set) var newTypeNames: [Int64: String] = [:]
        /// Last versions of streams touched in this transaction (nil: the stream has no events).
        private(set) var versions: [Int64: Int64?] = [:]
        /// The new ends of the streams this transaction appended to, by stream id, for
        /// `journal_streams` (`writeStreamEnds()`: at the commit, or sooner in a long one).
        private(set) var ends: [Int64: StreamEnd] = [:]
        /// The ids this transaction added to `recentIDs` since its last copy into the index, in
        /// order, so that a rollback can take them out again.
        private(set) var addedIDs: [EventIDKey] = []
        /// True once this transaction copied ids into the index: a rollback then forgets the
        /// whole memory of the tail (the next transaction reloads it).
        private(set) var copiedIDs = false
        /// The last id a lookup found in none of the three places: the importer asks for an id
        /// just before appending it, and the append need not ask SQLite again. Only a copy into
        /// the index can make it present there, and a copy clears it.
        var absentFromIndex: EventIDKey?
        /// Set once the per-stream maps (`newStreams`, `newStreamNames`, `versions`) were emptied
        /// to bound a long transaction's memory (a 10-million-line import creates ~2 M streams):
        /// a stream row found by SQL may then be this transaction's own, so it is remembered here
        /// rather than in the committed caches.
        private(set) var spilledStreams = false
        /// The dictionary new events are compressed with (nil: store raw).
        var dictionaryID: Int64?
        /// True when this transaction created `dictionaryID`.
        var trainedDictionary = false
        var written = 0
        private(set) var savepoints = 0
        private var undo: [Undo] = []

        init(headPosition: Int64, headHash: [UInt8]) {
            self.headPosition = headPosition
            self.headHash = headHash
            treeSize = headPosition
        }

        enum Undo {
            case stream(StreamName, Int64)
            case type(String, Int64)
            case version(Int64, Int64??)
            case end(Int64, StreamEnd?)
        }

        struct Mark {
            let headPosition: Int64
            let headHash: [UInt8]
            let dictionaryID: Int64?
            let trainedDictionary: Bool
            let written: Int
            let leafBytes: Int
            let undoCount: Int
            let addedIDCount: Int
        }

        var mark: Mark {
            Mark(
                headPosition: headPosition, headHash: headHash, dictionaryID: dictionaryID,
                trainedDictionary: trainedDictionary, written: written, leafBytes: leafHashes.count,
                undoCount: undo.count,
                addedIDCount: addedIDs.count)
        }

        mutating func rollback(to mark: Mark) {
            while undo.count > mark.undoCount {
                switch undo.removeLast() {
                case let .stream(stream, id):
                    newStreams[stream] = nil
                    newStreamNames[id] = nil
                case let .type(name, id):
                    newTypes[name] = nil
                    newTypeNames[id] = nil
                case let .version(id, previous):
                    versions[id] = previous
                case let .end(id, previous):
                    ends[id] = previous
                }
            }
            if addedIDs.count > mark.addedIDCount { addedIDs.removeSubrange(mark.addedIDCount...) }
            headPosition = mark.headPosition
            headHash = mark.headHash
            // No flush of the tree happens under a savepoint: the leaves since the mark are here.
            leafHashes.removeSubrange(mark.leafBytes...)
            dictionaryID = mark.dictionaryID
            trainedDictionary = mark.trainedDictionary
            written = mark.written
            savepoints -= 1
            if savepoints == 0 { undo.removeAll(keepingCapacity: true) }
        }

        mutating func openSavepoint() { savepoints += 1 }

        /// Closes the innermost savepoint after it was released (kept). Once no savepoint is open
        /// nothing can roll back to the logged changes, so the log is emptied: a long transaction
        /// (a 10-million-line import) keeps no per-append history.
        mutating func releaseSavepoint() {
            savepoints -= 1
            if savepoints == 0 { undo.removeAll(keepingCapacity: true) }
        }

        /// The undo entries currently logged (for tests of the bounded log).
        var undoLogCount: Int { undo.count }

        mutating func setVersion(_ version: Int64?, of streamID: Int64) {
            if savepoints > 0 { undo.append(.version(streamID, versions[streamID])) }
            versions[streamID] = .some(version)
        }

        mutating func setEnd(_ end: StreamEnd, of streamID: Int64) {
            if savepoints > 0 { undo.append(.end(streamID, ends[streamID])) }
            ends[streamID] = end
        }

        /// Empties `ends` (outside savepoints), returning what it held.
        mutating func takeEnds() -> [Int64: StreamEnd] {
            precondition(savepoints == 0, "stream ends are written outside savepoints")
            defer { ends.removeAll() }
            return ends
        }

        mutating func addStream(_ stream: StreamName, id: Int64) {
            if savepoints > 0 { undo.append(.stream(stream, id)) }
            newStreams[stream] = id
            newStreamNames[id] = stream
        }

        mutating func addedID(_ key: EventIDKey) { addedIDs.append(key) }

        /// Entries in the per-stream maps that a spill empties.
        func streamBookkeeping(keepingVersions: Bool) -> Int {
            keepingVersions ? newStreams.count : max(newStreams.count, versions.count)
        }

        /// Empties the per-stream maps (except `versions` when told to keep them); SQL sees this
        /// transaction's rows, so lookups stay exact.
        mutating func spillStreams(keepingVersions: Bool) {
            precondition(savepoints == 0, "the stream maps are emptied outside savepoints")
            newStreams.removeAll()
            newStreamNames.removeAll()
            if !keepingVersions { versions.removeAll() }
            spilledStreams = true
        }

        /// The tail was copied into the id index (`recentIDs.through` moved).
        mutating func indexedIDs() {
            precondition(savepoints == 0, "the id index is copied outside savepoints")
            addedIDs.removeAll(keepingCapacity: true)
            copiedIDs = true
            absentFromIndex = nil
        }

        mutating func addType(_ name: String, id: Int64) {
            if savepoints > 0 { undo.append(.type(name, id)) }
            newTypes[name] = id
            newTypeNames[id] = name
        }
    }

    init(path: String, configuration: SQLiteEventStore.Configuration, writer: Bool) throws(EventStoreError) {
        self.path = path
        self.configuration = configuration
        hasher = ChainHasher()
        let options = SQLiteConnection.Options(
            readOnly: configuration.readOnly || !writer,
            create: configuration.createIfMissing && !configuration.readOnly,
            busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
            walMode: writer && !configuration.readOnly && !configuration.buildsNewJournal,
            synchronous: configuration.synchronous.rawValue)
        do {
            sql = try SQLiteConnection(path: path, options: options)
        } catch {
            if error.resultCode == 14 && !options.create { // 14: SQLITE_CANTOPEN
                throw EventStoreError(
                    code: .missing, message: "no journal at \(path)",
                    backendCode: String(error.extendedCode))
            }
            throw EventStoreError(sqlite: error, doing: "opening \(path)")
        }
        // A larger page cache keeps the indexes' hot pages in memory (SQLite's default is 2 MiB),
        // and memory-mapped reads skip a copy per page.
        try run("configuring the connection") { () throws(SQLiteError) in
            try sql.execute("PRAGMA cache_size = -\(configuration.cacheSizeKiB)")
            try sql.execute("PRAGMA mmap_size = \(configuration.mmapSizeBytes)")
        }
        if writer && configuration.buildsNewJournal {
            newJournalStreams = NewJournalStreams()
            publishedDictionary = PublishedDictionary()
            do {
                loadIDs = try LoadEventIDs(beside: path)
            } catch {
                throw EventStoreError(code: .io, message: "creating the id runs of the journal load \(path): \(error)")
            }
            // A file nobody else sees until it is complete (SQLiteJournalLoad): no WAL, so each
            // page is written once, and a rollback journal in memory for the savepoints.
            try run("configuring the connection") { () throws(SQLiteError) in
                try sql.execute("PRAGMA journal_mode = MEMORY")
            }
        } else if writer && !configuration.readOnly {
            // Checkpoint every ~40 MiB of WAL instead of 4 MiB: a page rewritten by several
            // commits is copied into the database file once.
            try run("configuring the connection") { () throws(SQLiteError) in
                try sql.execute("PRAGMA wal_autocheckpoint = \(configuration.walAutocheckpointPages)")
            }
        }
        if writer, let pages = configuration.maxPageCount {
            try run("setting max_page_count") { () throws(SQLiteError) in
                try sql.execute("PRAGMA max_page_count = \(pages)")
            }
        }
        payloadScratch.reserveCapacity(4096)
        compressScratch.reserveCapacity(4096)
    }

    deinit { close() }

    /// Finalizes the statements, then closes the connection: SQLite only really closes (and, for
    /// the last connection to the file, checkpoints the WAL into it and removes it) once no
    /// statement is left. Idempotent.
    func close() {
        for statement in hotStatements { statement?.finalize() }
        sql.close()
    }

    /// Runs SQLite calls, turning their failures into store errors that say what was being done.
    @inline(__always)
    func run<R>(
        _ what: @autoclosure () -> String, stream: StreamName? = nil,
        _ body: () throws(SQLiteError) -> R
    ) throws(EventStoreError) -> R {
        do {
            return try body()
        } catch {
            throw EventStoreError(sqlite: error, doing: what(), stream: stream?.rawValue)
        }
    }

    /// Drops every cache (after raw SQL changed the file behind the store's back).
    func forgetCaches() {
        streamIDs.removeAll()
        streamNames.removeAll()
        typeIDs.removeAll()
        typeNames.removeAll()
        dictionaries.removeAll()
        streamNameSlots.removeAll()
        streamNamesPagedThrough = 0
        typeNameSlots.removeAll()
        linkStreamNames.removeAll()
        linkTypeNames.removeAll()
        dictionaryTrainingSkipped = false
        recentIDs.reset()
    }

    // MARK: - Interned names

    /// The id of a stream, or nil when the journal has never stored it.
    func streamID(of stream: StreamName) throws(EventStoreError) -> Int64? {
        if let id = streamIDs[stream] { return id }
        if let id = write?.newStreams[stream] { return id }
        if newJournalStreams != nil { return try streamIDWithoutNameIndex(stream) }
        let found: Int64? = try run("looking up stream \(stream)") { () throws(SQLiteError) in
            let statement = try statement(.streamByName)
            statement.bind(stream.rawValue, at: 1)
            defer { statement.reset() }
            return try statement.step() ? statement.int64(at: 0) : nil
        }
        // Streams created by the open transaction are in `newStreams` (until a spill), so a row
        // found here is committed and safe to cache.
        if let found { rememberStream(stream, id: found) }
        return found
    }

    /// A stream row found by SQL: cached as committed, unless this transaction spilled its own
    /// streams' bookkeeping (then it may be one of them, and the transaction keeps it).
    func rememberStream(_ stream: StreamName, id: Int64) {
        if write?.spilledStreams == true {
            write?.addStream(stream, id: id)
        } else {
            cacheStream(stream, id: id)
        }
    }

    /// Bounds a long transaction's per-stream maps (between appends, outside savepoints). A
    /// journal being loaded keeps its versions (it has no index to find them again): its
    /// transactions are one `append` call each, as big as the caller makes them.
    func spillStreamBookkeepingIfDue() {
        let keepVersions = newJournalStreams != nil
        guard let state = write, state.savepoints == 0,
            state.streamBookkeeping(keepingVersions: keepVersions) >= configuration.transactionStreamMemory
        else { return }
        write?.spillStreams(keepingVersions: keepVersions)
    }

    func cacheStream(_ stream: StreamName, id: Int64) {
        if streamIDs.count >= SQLiteJournal.streamCacheLimit {
            streamIDs.removeAll(keepingCapacity: true)
            streamNames.removeAll(keepingCapacity: true)
        }
        streamIDs[stream] = id
        streamNames[id] = stream
    }

    /// The stream name of an id (for log-wide reads).
    func streamName(of id: Int64) throws(EventStoreError) -> StreamName {
        if let name = streamNameSlots.name(of: id) { return name }
        if let name = streamNames[id] ?? write?.newStreamNames[id] {
            if streamNames[id] != nil { streamNameSlots.keep(name, for: id) }
            return name
        }
        if write == nil, id > streamNamesPagedThrough, streamNamesReadAlone >= Self.streamNamesReadAloneFirst,
            let name = try streamNamesPaged(from: id)
        {
            return name
        }
        streamNamesReadAlone += 1
        guard let text = try storedStreamText(id: id), let name = try? StreamName(text) else {
            throw EventStoreError(code: .integrity, message: "stream #\(id) is missing or has an invalid name")
        }
        rememberStream(name, id: id)
        if streamNames[id] != nil { streamNameSlots.keep(name, for: id) }
        return name
    }

    /// Reads the names of stream `id` and of the streams after it into the slots, and returns
    /// the name of `id` (nil when it has no valid one: the caller's lookup says what is wrong).
    /// A log read in position order meets streams in about the order they were created, so one
    /// query serves the next streams too. Only outside a write transaction: every row it sees is
    /// committed, and a committed stream's name never changes.
    private func streamNamesPaged(from id: Int64) throws(EventStoreError) -> StreamName? {
        var found: StreamName?
        try forEachStream(from: id, limit: Self.streamNamesPage) { other, statement in
            streamNamesPagedThrough = max(streamNamesPagedThrough, other)
            guard let name = try? StreamName(statement.text(at: 1)) else { return }
            streamNameSlots.keep(name, for: other)
            if other == id { found = name }
        }
        return found
    }

    /// Calls `body` with each stream row from `id` on, in id order, `limit` at most: its id, and
    /// the statement on its row (the name in column 1).
    func forEachStream(from id: Int64, limit: Int, _ body: (Int64, SQLiteStatement) -> Void)
        throws(EventStoreError)
    {
        try run("listing streams by id") { () throws(SQLiteError) in
            let statement = try sql.cached("SELECT id, name FROM journal_streams WHERE id >= ? ORDER BY id LIMIT ?")
            statement.bind(id, at: 1)
            statement.bind(Int64(limit), at: 2)
            defer { statement.reset() }
            while try statement.step() { body(statement.int64(at: 0), statement) }
        }
    }

    /// Stream names `streamName(of:)` reads at a time: a fraction of the slots, so that a page
    /// does not push out the names of the streams still in use.
    static let streamNamesPage = 256
    /// Misses read one name each before `streamName(of:)` reads pages of names.
    static let streamNamesReadAloneFirst = 4

    /// The stored name of stream `id` as this connection sees it (the open transaction's rows
    /// included), read by id; nil when there is no such row.
    func storedStreamText(id: Int64) throws(EventStoreError) -> String? {
        try run("looking up stream #\(id)") { () throws(SQLiteError) in
            let statement = try statement(.streamByID)
            statement.bind(id, at: 1)
            defer { statement.reset() }
            return try statement.step() ? statement.text(at: 0) : nil
        }
    }

    /// The name of an event type id.
    func typeName(of id: Int64) throws(EventStoreError) -> String {
        if let name = typeNameSlots.name(of: id) { return name }
        if let name = typeNames[id] {
            typeNameSlots.keep(name, for: id)
            return name
        }
        if let name = write?.newTypeNames[id] { return name }
        let text: String? = try run("looking up event type #\(id)") { () throws(SQLiteError) in
            let statement = try statement(.typeByID)
            statement.bind(id, at: 1)
            defer { statement.reset() }
            return try statement.step() ? statement.text(at: 0) : nil
        }
        guard let text else {
            throw EventStoreError(code: .integrity, message: "event type #\(id) is missing")
        }
        typeNames[id] = text
        typeIDs[text] = id
        return text
    }

    /// A dictionary by version.
    func dictionary(_ id: Int64) throws(EventStoreError) -> LZ4Dictionary {
        if let dictionary = dictionaries[id] { return dictionary }
        let content: [UInt8]? = try run("loading dictionary #\(id)") { () throws(SQLiteError) in
            let statement = try sql.cached("SELECT content FROM journal_dictionaries WHERE id = ? AND codec = 'lz4'")
            statement.bind(id, at: 1)
            defer { statement.reset() }
            return try statement.step() ? statement.blob(at: 0) : nil
        }
        guard let content else {
            throw EventStoreError(code: .integrity, message: "compression dictionary #\(id) is missing")
        }
        let dictionary = LZ4Dictionary(id: id, content: content)
        dictionaries[id] = dictionary
        return dictionary
    }

    // MARK: - Head

    /// The committed (or, inside a write transaction, current) head.
    func head() throws(EventStoreError) -> (position: Int64, hash: [UInt8]) {
        if let write { return (write.headPosition, write.headHash) }
        return try run("reading the journal head") { () throws(SQLiteError) in
            let statement = try statement(.head)
            defer { statement.reset() }
            guard try statement.step() else { return (0, ChainHasher.zeroHash) }
            return (statement.int64(at: 0), statement.blob(at: 1))
        }
    }

    /// The last version of a stream (nil: no events).
    func lastVersion(streamID: Int64) throws(EventStoreError) -> Int64? {
        if let known = write?.versions[streamID] { return known }
        // A journal being loaded has no (stream_id, version) index: its versions are all here.
        if let newJournalStreams { return newJournalStreams.lastVersion(of: streamID) }
        let version: Int64? = try run("reading a stream's version") { () throws(SQLiteError) in
            let statement = try statement(.lastVersion)
            statement.bind(streamID, at: 1)
            defer { statement.reset() }
            guard try statement.step(), !statement.isNull(at: 0) else { return nil }
            return statement.int64(at: 0)
        }
        write?.setVersion(version, of: streamID)
        return version
    }

    func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64? {
        guard let id = try streamID(of: stream) else { return nil }
        return try lastVersion(streamID: id)
    }
}

@available(*, unavailable, message: "a journal connection is used by one thread at a time")
extension SQLiteJournal: Sendable {}
