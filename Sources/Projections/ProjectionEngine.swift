import EventStore
import JournalCore

/// The projections the engine keeps.
public enum ProjectionName: String, Sendable, CaseIterable, Comparable {
    /// Event counts by occurredAt (how many events a window covers).
    case events
    /// The `3ds` read model (streams and counted events).
    case threeDS = "3ds"
    /// The `card` read model.
    case card
    /// The directory of every stream (`journal find`).
    case streams

    public static func < (lhs: ProjectionName, rhs: ProjectionName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Where a projection stands, for `journal project --status`.
public struct ProjectionStatus: Sendable, Equatable {
    public var name: ProjectionName
    /// The fold's code version in this build.
    public var codeVersion: Int64
    /// The version the live model was built with (nil when never built).
    public var builtVersion: Int64?
    /// The table generation queries read (0 when never built).
    public var generation: Int64
    /// The last log position applied to the live model.
    public var checkpoint: Int64
    /// The log's head position.
    public var head: Int64
    /// Events not applied yet: head − checkpoint.
    public var lag: Int64 { max(0, head - checkpoint) }
    /// The checkpoint of a rebuild in progress, if one was interrupted or is running.
    public var rebuildCheckpoint: Int64?
    /// True when the live model was built by another code version and will rebuild before use.
    public var stale: Bool { builtVersion != codeVersion }
}

/// Keeps read models in the journal's database (SQLite or PostgreSQL) up to date with the log.
///
/// Each projection has a row in `pj_meta`: its code version, the generation of its live tables
/// and its checkpoint (last position applied). Every batch applies the events and moves the
/// checkpoint in one transaction, so an interrupted run never applies an event twice or skips
/// one. A rebuild fills a new generation of tables (with its own checkpoint, so it resumes after
/// an interruption) and swaps it in, in one transaction, only when it has reached the head.
///
/// Not thread-safe: one engine per thread. Several processes may share the database: every
/// batch re-checks the stored checkpoints inside its transaction, and moves only those below its
/// last position (the projections' checkpoints differ when a query caught up only some of them).
public final class ProjectionEngine {
    let db: ProjectionDatabase
    let source: any ProjectionEventSource
    private let reader: EventReader
    private let models: [ProjectionName: any ProjectionModel]
    /// Events read and applied per transaction.
    public var batchSize = 200_000
    /// A run with batches at least this large starts with an eighth of `batchSize` and doubles
    /// up to it (`batchLimit`); smaller batch sizes read every batch full.
    package var rampsFromBatchSize = 100_000
    /// Called after each batch a rebuild or catch-up commits, with the log position it reached
    /// (for a progress line; the engine never prints).
    public var onBatch: ((_ position: Int64) -> Void)?

    /// Opens the read models in the SQLite database at `databasePath` (the journal's own file).
    public convenience init(databasePath: String, source: any ProjectionEventSource) throws(ProjectionError) {
        try self.init(database: ProjectionDatabase(path: databasePath, create: true), source: source)
    }

    /// Read models in a private temporary SQLite database that lasts as long as the engine: for
    /// a journal that cannot hold them (a read-only copy). SQLite makes the file in its
    /// temporary folder (`$SQLITE_TMPDIR`, `$TMPDIR`, else `/var/tmp` or `/tmp`) and removes its
    /// name at once, so nothing is left, even by a killed process; pages beyond the page cache
    /// go to that file instead of memory. Every use starts from position 1.
    public convenience init(temporaryFor source: any ProjectionEventSource) throws(ProjectionError) {
        try self.init(database: ProjectionDatabase(path: "", create: true), source: source)
    }

    /// Opens the read models beside the journal at `location`: a `postgres://` or
    /// `postgresql://` URL keeps them in PostgreSQL tables of the journal's schema, anything
    /// else is the journal's SQLite file. Same tables, folds, checkpoints and answers on both.
    public convenience init(journal location: String, source: any ProjectionEventSource) throws(ProjectionError) {
        try self.init(database: ProjectionDatabase(location: location), source: source)
    }

    init(database: ProjectionDatabase, source: any ProjectionEventSource) throws(ProjectionError) {
        db = database
        self.source = source
        reader = EventReader(source: source)
        models = [
            .events: EventClockProjection(), .threeDS: ThreeDSProjection(), .card: CardProjection(),
            .streams: StreamsProjection()
        ]
        do {
            let (int, text) = (db.sql.integer, db.sql.text)
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS \(ProjectionDatabase.lockTable)(\
                name \(text) PRIMARY KEY, version \(int) NOT NULL,
                  generation \(int) NOT NULL, checkpoint \(int) NOT NULL, build_version \(int),
                  build_generation \(int), build_checkpoint \(int), checkpoint_hash \(text),
                  build_checkpoint_hash \(text))
                """)
            try addFoldedHashColumns()
        } catch {
            db.close()
            throw error
        }
    }

    deinit { db.close() }

    public func close() { db.close() }

    /// How many batches a projection folded ahead (on another thread, while the batch before
    /// was written) and how many it folded in the batch's transaction (tests).
    private(set) var foldsAhead = 0
    private(set) var foldsInTransaction = 0

    /// Keeps at most about `limit` stream rows in memory per projection (tests of eviction).
    func limitStreamCache(to limit: Int) {
        (model(.threeDS) as? ThreeDSProjection)?.limitCache(to: limit)
        (model(.card) as? CardProjection)?.limitCache(to: limit)
        (model(.streams) as? StreamsProjection)?.limitCache(to: limit)
    }

    /// Pretends the fold of `name` changed (tests of the automatic rebuild).
    func setCodeVersion(_ version: Int64, of name: ProjectionName) { model(name).version = version }

    private func model(_ name: ProjectionName) -> any ProjectionModel {
        guard let model = models[name] else { preconditionFailure("no model for \(name)") }
        return model
    }

    // MARK: - Meta

    struct Meta {
        var version: Int64
        var generation: Int64
        var checkpoint: Int64
        var buildVersion: Int64?
        var buildGeneration: Int64?
        var buildCheckpoint: Int64?
        /// The stored hash (hex) of the event at `checkpoint` when it was folded; nil for read
        /// models kept by a build before the columns existed, until their next batch.
        var checkpointHash: String?
    }

    /// Read models kept by an earlier build have no columns for the folded hashes: they are
    /// added (another process may add them at the same time: then they are there).
    private func addFoldedHashColumns() throws(ProjectionError) {
        func present() throws(ProjectionError) -> Bool {
            let st = try db.statement(
                db.isPostgres
                    ? """
                    SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() \
                    AND table_name = 'pj_meta' AND column_name = 'checkpoint_hash'
                    """
                    : "SELECT count(*) FROM pragma_table_info('pj_meta') WHERE name = 'checkpoint_hash'")
            defer { st.reset() }
            return try st.step() && st.int(0) > 0
        }
        guard try !present() else { return }
        do {
            try db.execute(
                """
                ALTER TABLE pj_meta ADD COLUMN checkpoint_hash \(db.sql.text);
                ALTER TABLE pj_meta ADD COLUMN build_checkpoint_hash \(db.sql.text)
                """)
        } catch {
            guard try present() else { throw error }
        }
    }

    func meta(_ name: ProjectionName) throws(ProjectionError) -> Meta? {
        let st = try db.statement(
            """
            SELECT version, generation, checkpoint, build_version, build_generation, build_checkpoint,
              checkpoint_hash
            FROM pj_meta WHERE name = \(db.sql.p(1))
            """)
        st.bind(1, name.rawValue)
        defer { st.reset() } // a statement left on a row would lock its table
        guard try st.step() else { return nil }
        return Meta(
            version: st.int(0), generation: st.int(1), checkpoint: st.int(2),
            buildVersion: st.optionalInt(3), buildGeneration: st.optionalInt(4),
            buildCheckpoint: st.optionalInt(5), checkpointHash: st.optionalText(6))
    }

    private func head() throws(ProjectionError) -> Int64 {
        do {
            return try source.headPosition()
        } catch {
            throw ProjectionError(.eventStore, "cannot read the log's head: \(error)")
        }
    }

    // MARK: - Status

    public func status() throws(ProjectionError) -> [ProjectionStatus] {
        var folded: [(position: Int64, hash: String?)] = []
        for name in ProjectionName.allCases {
            if let stored = try meta(name), stored.generation > 0 {
                folded.append((stored.checkpoint, stored.checkpointHash))
            }
        }
        try checkFoldedLog(folded)
        let head = try head()
        var result: [ProjectionStatus] = []
        for name in ProjectionName.allCases {
            let stored = try meta(name)
            let live = stored.map { $0.generation > 0 } ?? false
            result.append(
                ProjectionStatus(
                    name: name, codeVersion: model(name).version,
                    builtVersion: live ? stored?.version : nil,
                    generation: stored?.generation ?? 0,
                    checkpoint: live ? (stored?.checkpoint ?? 0) : 0, head: head,
                    rebuildCheckpoint: stored?.buildGeneration != nil ? stored?.buildCheckpoint : nil))
        }
        return result
    }

    /// The live generation of each projection (after ``catchUp(_:)``).
    func generation(_ name: ProjectionName) throws(ProjectionError) -> Int64 {
        try meta(name)?.generation ?? 0
    }

    // MARK: - Catch-up

    /// Brings the named projections up to the log's head. A projection never built, or built by
    /// another code version, is rebuilt first. Returns the number of log events read and applied.
    /// - Parameter maxBatches: stop after this many batches (tests use it to interrupt a run).
    @discardableResult
    public func catchUp(
        _ names: [ProjectionName] = ProjectionName.allCases,
        maxBatches: Int? = nil
    ) throws(ProjectionError) -> Int64 {
        var needRebuild: [ProjectionName] = []
        for name in names {
            let stored = try meta(name)
            if stored == nil || stored!.generation == 0 || stored!.version != model(name).version {
                needRebuild.append(name)
            }
        }
        var applied: Int64 = 0
        while !needRebuild.isEmpty {
            applied += try rebuild(needRebuild, maxBatches: maxBatches, onlyStale: true)
            var unfinished: [ProjectionName] = []
            for name in needRebuild where try meta(name)?.buildGeneration != nil { unfinished.append(name) }
            if !unfinished.isEmpty && maxBatches != nil {
                return applied // interrupted on purpose: the rebuild resumes next time
            }
            needRebuild = unfinished // the log grew during the rebuild: finish it
        }
        var targets: [Target] = []
        var folded: [(position: Int64, hash: String?)] = []
        for name in names {
            guard let stored = try meta(name) else { continue }
            try model(name).open(in: db, generation: stored.generation)
            targets.append(
                Target(
                    name: name, generation: stored.generation, checkpoint: stored.checkpoint,
                    building: false))
            folded.append((stored.checkpoint, stored.checkpointHash))
        }
        try checkFoldedLog(folded)
        applied += try run(&targets, maxBatches: maxBatches)
        if applied > 0 { settleLog() }
        return applied
    }

    /// After writing, empties SQLite's write-ahead log into the database file: a WAL left with
    /// frames (the journal's own connection is read-only and cannot) is re-read in full by every
    /// process that opens the file next, which would cost each query milliseconds per 1,000
    /// frames. Best effort (another process reading blocks the truncation; it is then left to
    /// the next writer).
    private func settleLog() {
        guard !db.isPostgres else { return }
        try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    // MARK: - Rebuild

    /// Rebuilds the named projections from position 1 into fresh tables and swaps them in when
    /// they reach the head; queries keep reading the old tables until then. An interrupted
    /// rebuild resumes from its own checkpoint. Returns the number of log events read and applied.
    @discardableResult
    public func rebuild(
        _ names: [ProjectionName] = ProjectionName.allCases,
        maxBatches: Int? = nil
    ) throws(ProjectionError) -> Int64 {
        try rebuild(names, maxBatches: maxBatches, onlyStale: false)
    }

    /// `onlyStale`: skip a projection that another process has built meanwhile (catch-up).
    private func rebuild(_ names: [ProjectionName], maxBatches: Int?, onlyStale: Bool) throws(ProjectionError) -> Int64
    {
        var targets: [Target] = []
        for name in names {
            let model = model(name)
            let target: Target? = try db.transaction { () throws(ProjectionError) -> Target? in
                var stored = try meta(name) ?? Meta(version: model.version, generation: 0, checkpoint: 0)
                if onlyStale && stored.generation > 0 && stored.version == model.version { return nil }
                if stored.generation == 0 && stored.buildGeneration == nil {
                    try db.statement(
                        db.sql.insertIgnoringConflicts(
                            "pj_meta", "name, version, generation, checkpoint", values: "\(db.sql.parameters(2)),0,0")
                    )
                    .bindAndRun(name.rawValue, model.version)
                }
                if let buildGeneration = stored.buildGeneration, stored.buildVersion == model.version,
                    let checkpoint = stored.buildCheckpoint
                {
                    return Target(name: name, generation: buildGeneration, checkpoint: checkpoint, building: true)
                }
                if let stale = stored.buildGeneration { try drop(model, generation: stale) }
                let generation = max(stored.generation, stored.buildGeneration ?? 0) + 1
                try model.createTables(in: db, generation: generation)
                // On SQLite the secondary indexes (3DS `created` and `ended`, card `decision`
                // and `start`; the `streams` table has none here, see `StreamsProjection`) are
                // made with the empty tables and kept by every batch's writes: their keys
                // are times that mostly grow with the log (inserts at the B-tree's right edge),
                // so keeping them costs about what one sort at the swap would, but that work
                // overlaps the next batches' scan and fold instead of running alone at the end
                // with the other core idle (BENCHMARKS.md, "Rebuild path").
                if !db.isPostgres { try model.createIndexes(in: db, generation: generation) }
                let st = try db.statement(
                    """
                    UPDATE pj_meta SET build_version = \(db.sql.p(1)), build_generation = \(db.sql.p(2)),
                      build_checkpoint = 0, build_checkpoint_hash = NULL WHERE name = \(db.sql.p(3))
                    """)
                st.bind(1, model.version)
                st.bind(2, generation)
                st.bind(3, name.rawValue)
                try st.run()
                stored.buildGeneration = generation
                return Target(name: name, generation: generation, checkpoint: 0, building: true)
            }
            guard let target else { continue }
            try model.open(in: db, generation: target.generation)
            targets.append(target)
        }
        let applied = try run(&targets, maxBatches: maxBatches)
        let head = try head()
        let finished = targets.filter { $0.checkpoint >= head }
        guard !finished.isEmpty else { return applied }
        try db.transaction { () throws(ProjectionError) in
            for target in finished {
                // Another process may have swapped this generation in already (two first
                // queries building at once): then there is nothing left to swap.
                guard let stored = try meta(target.name), stored.buildGeneration == target.generation,
                    stored.buildCheckpoint.map({ $0 >= head }) == true
                else { continue }
                try model(target.name).createIndexesAtSwap(in: db, generation: target.generation)
                try model(target.name).createIndexes(in: db, generation: target.generation)
                if stored.generation > 0 { try drop(model(target.name), generation: stored.generation) }
                let st = try db.statement(
                    """
                    UPDATE pj_meta SET version = build_version, generation = build_generation,
                      checkpoint = build_checkpoint, checkpoint_hash = build_checkpoint_hash,
                      build_version = NULL, build_generation = NULL, build_checkpoint = NULL,
                      build_checkpoint_hash = NULL WHERE name = \(db.sql.p(1))
                    """)
                st.bind(1, target.name.rawValue)
                try st.run()
            }
        }
        settleLog()
        return applied
    }

    private func drop(_ model: any ProjectionModel, generation: Int64) throws(ProjectionError) {
        for table in model.tableNames(generation: generation) {
            try db.execute("DROP TABLE IF EXISTS \(table)")
        }
    }

    // MARK: - The batch loop

    struct Target {
        var name: ProjectionName
        var generation: Int64
        var checkpoint: Int64
        /// True for a rebuild's generation (its checkpoint is in the `build_` columns).
        var building: Bool
    }

    /// A batch read from the log and the writes of the projections that folded it (a
    /// projection missing from `writes` folds it on the engine's thread, in the transaction).
    private struct Folded {
        var batch: EventBatch
        var writes: [ProjectionName: PendingWrite] = [:]
    }

    /// The next batch, read and folded on another thread while the engine writes the current one.
    private struct FoldAhead {
        let from: Int64
        /// The events it reads at most (a batch shorter than this is the log's last).
        let limit: Int
        let task: BackgroundTask<Result<Folded, ProjectionError>>
    }

    /// Starts reading the batch at `from` and folding it, in memory, on another thread (the
    /// models' state moves on to the end of that batch: the engine must write it next, or
    /// forget the models' caches).
    private func foldAhead(
        from: Int64, limit: Int, names: [ProjectionName], prefetchLimit: Int?
    ) -> FoldAhead {
        // Lent, not given: the engine keeps its references to the reader and the models and does
        // not touch them until it has waited for the task. `sending` cannot express a loan (the
        // values stay reachable from `self`), hence `HandOver`; the folded result comes back
        // checked, as the task's `sending` value.
        let lent = HandOver((reader: reader, models: names.map { (name: $0, model: model($0)) }))
        return FoldAhead(
            from: from, limit: limit,
            task: BackgroundTask { () -> Result<Folded, ProjectionError> in
                let (reader, models) = lent.value
                do throws(ProjectionError) {
                    let batch = try reader.read(from: from, limit: limit)
                    if batch.count == limit, let prefetchLimit, let last = batch.last?.position {
                        reader.prefetch(from: last + 1, limit: prefetchLimit)
                    }
                    var folded = Folded(batch: batch)
                    let naming = StreamNaming(reader: reader, batch: batch)
                    for (name, model) in models {
                        folded.writes[name] = try model.fold(batch.views[...], names: naming, db: nil)
                    }
                    return .success(folded)
                } catch {
                    return .failure(error)
                }
            })
    }

    private func run(_ targets: inout [Target], maxBatches: Int?) throws(ProjectionError) -> Int64 {
        guard !targets.isEmpty else { return 0 }
        var ahead: FoldAhead?
        /// The log copied into the file while the run's last batch is written (SQLite).
        var checkpoint: BackgroundTask<Void>?
        defer {
            ahead?.task.finish()
            reader.cancelPrefetch()
            checkpoint?.finish() // before anyone empties the log: that needs the checkpoint lock
        }
        /// Waits for a fold ahead that will not be written and forgets what it folded.
        func dropAhead() {
            guard let pending = ahead else { return }
            ahead = nil
            pending.task.finish()
            for name in models.keys { model(name).forgetCache() }
        }
        var applied: Int64 = 0
        var batches = 0
        var retries = 0
        while maxBatches.map({ batches < $0 }) ?? true {
            let from = targets.map(\.checkpoint).min()! + 1
            var folded: Folded
            var readLimit = batchLimit(batches)
            if let pending = ahead, pending.from == from {
                ahead = nil
                readLimit = pending.limit
                switch pending.task.wait() {
                case .success(let value): folded = value
                case .failure(let error):
                    for target in targets { model(target.name).forgetCache() }
                    throw error
                }
            } else {
                dropAhead()
                folded = Folded(batch: try reader.read(from: from, limit: readLimit))
                // Read the next batch on another thread while this one is applied.
                if folded.batch.count == readLimit, let last = folded.batch.last?.position,
                    maxBatches.map({ batches + 1 < $0 }) ?? true
                {
                    reader.prefetch(from: last + 1, limit: batchLimit(batches + 1))
                }
            }
            let batch = folded.batch
            guard let last = batch.last?.position else { break }
            let lastHash = try loggedHash(at: last)
            let views = batch.views
            let names = StreamNaming(reader: reader, batch: batch)
            let current = targets
            // The batch after this one is read and folded on another thread while this one is
            // written (when this one is full: else the log's head is near).
            let foldNext = batch.count == readLimit && (maxBatches.map { batches + 1 < $0 } ?? true)
            // The last batch of a run of several: the batches before it are copied from the log
            // into the file meanwhile, on another connection (the final copy, alone at the end
            // of a rebuild, then has only this batch's pages left).
            if !foldNext && batches > 0 && checkpoint == nil { checkpoint = db.checkpointAside() }
            do {
                try db.transaction { () throws(ProjectionError) in
                    var writes: [(target: Target, write: PendingWrite)] = []
                    for target in current {
                        guard let stored = try meta(target.name) else { throw staleBatch() }
                        let storedCheckpoint = target.building ? stored.buildCheckpoint : stored.checkpoint
                        let storedGeneration = target.building ? stored.buildGeneration : stored.generation
                        guard storedCheckpoint == target.checkpoint, storedGeneration == target.generation else {
                            throw staleBatch()
                        }
                        // A model already at or past the batch's end (caught up alone by a
                        // query, or a resumed rebuild) keeps its rows and checkpoint: writing it
                        // `last` would set it back, and the events after it would be applied twice.
                        guard target.checkpoint < last else { continue }
                        if let write = folded.writes[target.name] {
                            writes.append((target, write))
                            foldsAhead += 1
                            continue
                        }
                        foldsInTransaction += 1
                        let start = views.firstIndex { $0.position > target.checkpoint } ?? views.endIndex
                        guard let write = try model(target.name).fold(views[start...], names: names, db: db) else {
                            throw ProjectionError(
                                .database, "read models: \(target.name.rawValue) did not fold a batch")
                        }
                        writes.append((target, write))
                    }
                    if foldNext {
                        // Only the models this batch leaves at `last`: the others fold in the
                        // transaction of the batch that reaches them, from their own checkpoint.
                        ahead = foldAhead(
                            from: last + 1, limit: batchLimit(batches + 1),
                            names: current.filter { $0.checkpoint <= last }.map(\.name),
                            prefetchLimit: maxBatches.map { batches + 2 < $0 } ?? true
                                ? batchLimit(batches + 2) : nil)
                    }
                    for (target, write) in writes {
                        try write.write(db)
                        let prefix = target.building ? "build_" : ""
                        let st = try db.statement(
                            """
                            UPDATE pj_meta SET \(prefix)checkpoint = \(db.sql.p(1)), \
                            \(prefix)checkpoint_hash = \(db.sql.p(2)) WHERE name = \(db.sql.p(3))
                            """)
                        st.bind(1, last)
                        st.bind(2, lastHash)
                        st.bind(3, target.name.rawValue)
                        try st.run()
                    }
                }
            } catch {
                dropAhead()
                for target in current { model(target.name).forgetCache() }
                guard error.message == Self.staleMessage else { throw error }
                // Another process moved a checkpoint: reload what is stored and go on from there.
                var reloaded: [Target] = []
                for target in current {
                    guard let stored = try meta(target.name) else { continue }
                    let generation = target.building ? stored.buildGeneration : stored.generation
                    let checkpoint = target.building ? stored.buildCheckpoint : stored.checkpoint
                    guard let generation, let checkpoint else { continue }
                    try model(target.name).open(in: db, generation: generation)
                    reloaded.append(
                        Target(
                            name: target.name, generation: generation, checkpoint: checkpoint,
                            building: target.building))
                }
                // Each stale batch means another process committed one: chase it for as long
                // as it makes progress (it stops at the head); give up only when the stored
                // state stops moving.
                let moved =
                    reloaded.count != current.count
                    || zip(reloaded, current).contains {
                        $0.checkpoint > $1.checkpoint || $0.generation != $1.generation
                    }
                retries = moved ? 0 : retries + 1
                guard retries < 3 else { throw error }
                targets = reloaded
                if targets.isEmpty { break }
                continue
            }
            let lowest = targets.map(\.checkpoint).min()!
            applied += Int64(views.count(where: { $0.position > lowest }))
            for index in targets.indices { targets[index].checkpoint = max(targets[index].checkpoint, last) }
            batches += 1
            onBatch?(last)
            withExtendedLifetime(batch) {} // the views' data points into the batch
        }
        return applied
    }

    /// The events the run's batch number `index` (from 0) reads at most. A batch is read and
    /// folded on other threads while the one before it is written, except the first, read before
    /// anything can overlap it; so the run starts with an eighth of `batchSize` and doubles up to
    /// it, each batch's read and fold then overlapping a write about as long (a first full-size
    /// batch would leave the writing thread idle for its whole read and fold).
    private func batchLimit(_ index: Int) -> Int {
        guard batchSize >= rampsFromBatchSize else { return batchSize }
        return min(batchSize, (batchSize / 8) << min(index, 3))
    }

    // MARK: - The log the read models folded

    /// Spec §9: read models answer only for the log they folded. Each live model's
    /// checkpoint must still be in the log (the head did not go back below it), and the event
    /// stored there must be the one folded (its stored hash, which links it to every event
    /// before it, as recorded then; unknown for models kept by an earlier build, until their next
    /// batch). One event read per distinct checkpoint.
    /// - Throws: `.integrity` naming the position.
    func checkFoldedLog(_ folded: [(position: Int64, hash: String?)]) throws(ProjectionError) {
        guard let highest = folded.map(\.position).max(), highest > 0 else { return }
        let head = try head()
        guard highest <= head else {
            throw ProjectionError(
                .integrity,
                "integrity check failed at position \(head + 1): the read models folded the log up to position "
                    + "\(highest), but the journal's head is position \(head): the log was cut back, or the "
                    + "read models were built from another log", position: head + 1)
        }
        var checked: Set<Int64> = []
        for (position, hash) in folded where position > 0 && checked.insert(position).inserted {
            let logged = try loggedHash(at: position)
            guard hash == nil || hash == logged else {
                throw ProjectionError(
                    .integrity,
                    "integrity check failed at position \(position): the event stored there is not the one the "
                        + "read models folded (its stored hash differs): the log was rewritten, or the read "
                        + "models were built from another log", position: position)
            }
        }
    }

    /// The stored hash (hex) of the event at `position`, read from the log and checked against
    /// its chain link.
    private func loggedHash(at position: Int64) throws(ProjectionError) -> String {
        let event: RecordedEvent?
        do {
            event = try source.readAll(from: position, limit: 1).first
        } catch {
            throw ProjectionError.reading(error, from: position)
        }
        guard let event, event.position == position else {
            throw ProjectionError(
                .integrity,
                "integrity check failed at position \(position): the event the read models folded there is gone",
                position: position)
        }
        return Hex.string(event.hash)
    }

    private static let staleMessage = "projection checkpoint moved by another process"
    private func staleBatch() -> ProjectionError { ProjectionError(.busy, Self.staleMessage) }
}

extension Statement {
    func bindAndRun(_ text: String, _ value: Int64) throws(ProjectionError) {
        bind(1, text)
        bind(2, value)
        try run()
    }
}
