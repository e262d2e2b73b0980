// The on-disk format of the SQLite journal (schema version 4).
//
// The file is a SQLite 3 database in WAL mode whose header carries `PRAGMA application_id =
// 0x4A524E4C` ("JRNL") and `PRAGMA user_version = 4`. A file with another application id, or with
// tables but not ours, is refused as `.notAJournal`. Every journal table is prefixed `journal_`,
// so other modules (the projections) may keep their own tables in the same file.
//
//   journal_streams(id INTEGER PRIMARY KEY, name TEXT,             stream names, interned, and
//                   last_version INTEGER, last_position INTEGER)   each one's last event (version,
//                                          position), set by every commit that appends to it
//   UNIQUE INDEX journal_streams_name (name)                          (files created before
//                                          2026-11-30 have the same as an inline UNIQUE)
//   journal_types(id INTEGER PRIMARY KEY, name TEXT UNIQUE)        event types, interned
//   journal_dictionaries(id INTEGER PRIMARY KEY, codec TEXT, content BLOB, sha256 BLOB,
//                        trained_through INTEGER)                  LZ4 dictionaries, by version
//   journal_events(
//     position    INTEGER PRIMARY KEY   global position, 1, 2, 3, … (the rowid: appends follow time)
//     stream_id   INTEGER               → journal_streams.id
//     version     INTEGER               0, 1, 2, … within the stream
//     event_id                          a lowercase canonical UUID as a 16-byte BLOB; any other
//                                       spelling (upper case) as TEXT, exactly as written
//     type_id     INTEGER               → journal_types.id
//     occurred_at INTEGER               ms since the epoch
//     recorded_at INTEGER               ms since the epoch
//     codec       INTEGER               0: payload is raw; n > 0: LZ4 block against dictionary n
//     data_len    INTEGER               bytes of data in the decoded payload
//     meta_len    INTEGER NULL          bytes of meta after it; NULL when the event has no meta
//     payload     BLOB                  data ‖ meta, raw or compressed
//     hash        BLOB                  32-byte SHA-256 chain link (layout in ChainHasher.swift))
//   UNIQUE INDEX (stream_id, version)
//   journal_event_ids(id PRIMARY KEY, position) WITHOUT ROWID
//                                          the id index, written in sorted batches: every event at
//                                          a position ≤ journal_id_index.through, by its event_id
//   journal_id_index(singleton = 1, through)      how far the id index covers the log
//   journal_head(singleton = 1, position, hash)   the last committed position and its hash
//   journal_tree(level, idx, hashes BLOB, PRIMARY KEY (level, idx))
//                                          the Merkle tree over the log (spec §6) in
//                                          tiles of up to 256 hashes (TreeTiles.swift), appended
//                                          in the transaction that moves the head (files of
//                                          earlier builds declare it WITHOUT ROWID; a writer
//                                          moves their tiles to a rowid table when it opens them)
//   journal_checkpoints(id INTEGER PRIMARY KEY, size, root BLOB, note TEXT, signed_at)
//                                          the signed checkpoints the journal kept, in order
//
// Why the id index is batched (version 2): event ids are random (v4 UUIDs from the SDKs), so a
// B-tree index on them takes each insert on a random page; a commit of 1,000 events dirtied
// ~1,000 index pages (4 KiB each) and wrote ~4.9 KiB of WAL per event. Instead, the writer keeps
// the ids of the log's tail (positions > through) in memory, finds duplicates there or in
// `journal_event_ids`, and once the tail is large enough copies it into `journal_event_ids` in id
// order, in the same transaction as an append (SQLiteJournal+EventIDs.swift). A version 1
// file (with `UNIQUE INDEX (event_id)`) is upgraded when first opened for writing.
//
// Version 3 adds the tree and the checkpoints. A version 2 file is upgraded when first opened for
// writing: the tree is built from the whole log in one transaction (SQLiteJournal+Tree.swift).
// Opened read-only, it is read as it is, without a tree.
//
// Version 4 adds each stream's last version and position (`journal_streams.last_version`,
// `last_position`), which stream reads hold their events to (`StreamVersionCheck`). A version 3
// file is upgraded when first opened for writing: the columns are filled from the events in one
// transaction (`addStreamEnds`). Opened read-only, it is read as it is, without them.
//
// Triggers refuse UPDATE and DELETE on events, types, dictionaries and checkpoints, DELETE on
// streams and any UPDATE of a stream but moving its last event forward, any change of
// journal_head other than moving it forward, any DELETE on journal_tree and any UPDATE of a tile
// that does not keep its old hashes as a prefix.

extension SQLiteEventStore {
    static let applicationID: Int64 = 0x4A52_4E4C
    static let schemaVersion: Int64 = 4

    /// The unique index on stream names.
    static let streamNameIndexSchema = "CREATE UNIQUE INDEX journal_streams_name ON journal_streams(name);"
    /// The unique index on each stream's versions, which reads a stream in order.
    static let streamVersionIndexSchema =
        "CREATE UNIQUE INDEX journal_events_stream_version ON journal_events(stream_id, version);"
    /// The indexes a journal load (`SQLiteJournalLoad`) creates when it finishes, each in one
    /// sorted pass, instead of one insert per new stream or per event as it goes.
    static let loadIndexSchemas = [streamNameIndexSchema, streamVersionIndexSchema]

    /// The schema, with or without the indexes a journal load builds at the end.
    static func schema(loadIndexes: Bool) -> String {
        """
        CREATE TABLE journal_streams(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            last_version INTEGER,
            last_position INTEGER
        );
        \(loadIndexes ? streamNameIndexSchema : "")
        CREATE TABLE journal_types(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE
        );
        CREATE TABLE journal_dictionaries(
            id INTEGER PRIMARY KEY,
            codec TEXT NOT NULL,
            content BLOB NOT NULL,
            sha256 BLOB NOT NULL,
            trained_through INTEGER NOT NULL
        );
        CREATE TABLE journal_events(
            position INTEGER PRIMARY KEY,
            stream_id INTEGER NOT NULL,
            version INTEGER NOT NULL,
            event_id NOT NULL,
            type_id INTEGER NOT NULL,
            occurred_at INTEGER NOT NULL,
            recorded_at INTEGER NOT NULL,
            codec INTEGER NOT NULL,
            data_len INTEGER NOT NULL,
            meta_len INTEGER,
            payload BLOB NOT NULL,
            hash BLOB NOT NULL
        );
        \(loadIndexes ? streamVersionIndexSchema : "")
        CREATE TABLE journal_head(
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            position INTEGER NOT NULL,
            hash BLOB NOT NULL
        );
        INSERT INTO journal_head VALUES (1, 0, zeroblob(32));
        \(idIndexSchema)
        \(treeSchema)
        CREATE TRIGGER journal_events_no_update BEFORE UPDATE ON journal_events
            BEGIN SELECT RAISE(ABORT, 'journal events are immutable'); END;
        CREATE TRIGGER journal_events_no_delete BEFORE DELETE ON journal_events
            BEGIN SELECT RAISE(ABORT, 'journal events are immutable'); END;
        \(streamEndsTriggerSchema)
        CREATE TRIGGER journal_streams_no_delete BEFORE DELETE ON journal_streams
            BEGIN SELECT RAISE(ABORT, 'journal streams are immutable'); END;
        CREATE TRIGGER journal_types_no_update BEFORE UPDATE ON journal_types
            BEGIN SELECT RAISE(ABORT, 'journal types are immutable'); END;
        CREATE TRIGGER journal_types_no_delete BEFORE DELETE ON journal_types
            BEGIN SELECT RAISE(ABORT, 'journal types are immutable'); END;
        CREATE TRIGGER journal_dictionaries_no_update BEFORE UPDATE ON journal_dictionaries
            BEGIN SELECT RAISE(ABORT, 'journal dictionaries are immutable'); END;
        CREATE TRIGGER journal_dictionaries_no_delete BEFORE DELETE ON journal_dictionaries
            BEGIN SELECT RAISE(ABORT, 'journal dictionaries are immutable'); END;
        CREATE TRIGGER journal_head_no_delete BEFORE DELETE ON journal_head
            BEGIN SELECT RAISE(ABORT, 'the journal head cannot be deleted'); END;
        CREATE TRIGGER journal_head_forward_only BEFORE UPDATE ON journal_head
            WHEN NEW.position <= OLD.position OR NEW.singleton != OLD.singleton
            BEGIN SELECT RAISE(ABORT, 'the journal head only moves forward'); END;
        """
    }

    /// A stream row changes only to move its last event forward (new in version 4; before, no
    /// update at all).
    static let streamEndsTriggerSchema = """
        CREATE TRIGGER journal_streams_forward_only BEFORE UPDATE ON journal_streams
            WHEN NEW.id IS NOT OLD.id OR NEW.name IS NOT OLD.name OR NEW.last_version IS NULL
                OR NEW.last_position IS NULL OR NEW.last_version < OLD.last_version
                OR NEW.last_position < OLD.last_position
            BEGIN SELECT RAISE(ABORT, 'a journal stream only moves forward'); END;
        """

    /// Records `last_version` and `last_position` of one stream (a commit's, for each stream it
    /// appended to).
    static let recordStreamEndSQL = "UPDATE journal_streams SET last_version = ?, last_position = ? WHERE id = ?"

    /// Version 3 → 4 (and the end of 2 → 4): the columns (unless the file has them), each filled
    /// with its stream's last event, found through the `(stream_id, version)` index, then the
    /// trigger that lets them move forward only. Inside the caller's write transaction.
    static func addStreamEnds(_ connection: SQLiteConnection) throws(SQLiteError) {
        let hasColumns =
            try connection.scalarInt(
                "SELECT count(*) FROM pragma_table_info('journal_streams') WHERE name = 'last_version'") == 1
        try connection.execute(
            """
            DROP TRIGGER IF EXISTS journal_streams_no_update;
            DROP TRIGGER IF EXISTS journal_streams_forward_only;
            \(hasColumns ? "" : """
                ALTER TABLE journal_streams ADD COLUMN last_version INTEGER;
                ALTER TABLE journal_streams ADD COLUMN last_position INTEGER;
                """)
            UPDATE journal_streams SET (last_version, last_position) = (
                SELECT version, position FROM journal_events
                WHERE stream_id = journal_streams.id ORDER BY version DESC LIMIT 1);
            \(streamEndsTriggerSchema)
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    /// The batched id index (new in version 2), created with the schema or by the upgrade.
    static let idIndexSchema = """
        CREATE TABLE journal_event_ids(
            id NOT NULL PRIMARY KEY,
            position INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE journal_id_index(
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            through INTEGER NOT NULL
        );
        INSERT INTO journal_id_index VALUES (1, 0);
        CREATE TRIGGER journal_event_ids_no_update BEFORE UPDATE ON journal_event_ids
            BEGIN SELECT RAISE(ABORT, 'the event id index is immutable'); END;
        CREATE TRIGGER journal_event_ids_no_delete BEFORE DELETE ON journal_event_ids
            BEGIN SELECT RAISE(ABORT, 'the event id index is immutable'); END;
        CREATE TRIGGER journal_id_index_no_delete BEFORE DELETE ON journal_id_index
            BEGIN SELECT RAISE(ABORT, 'the event id index cannot be deleted'); END;
        CREATE TRIGGER journal_id_index_forward_only BEFORE UPDATE ON journal_id_index
            WHEN NEW.through < OLD.through OR NEW.singleton != OLD.singleton
            BEGIN SELECT RAISE(ABORT, 'the event id index only moves forward'); END;
        """

    /// The Merkle tree's tiles and the kept checkpoints (new in version 3), created with the
    /// schema or by the upgrade.
    static let treeSchema = """
        \(treeTableSchema)
        \(treeTriggersSchema)
        CREATE TABLE journal_checkpoints(
            id INTEGER PRIMARY KEY,
            size INTEGER NOT NULL,
            root BLOB NOT NULL,
            note TEXT NOT NULL,
            signed_at INTEGER NOT NULL
        );
        CREATE TRIGGER journal_checkpoints_no_update BEFORE UPDATE ON journal_checkpoints
            BEGIN SELECT RAISE(ABORT, 'journal checkpoints are immutable'); END;
        CREATE TRIGGER journal_checkpoints_no_delete BEFORE DELETE ON journal_checkpoints
            BEGIN SELECT RAISE(ABORT, 'journal checkpoints are immutable'); END;
        """

    /// The tiles, in a rowid table: a tile is up to 8 KiB, and in a `WITHOUT ROWID` table every
    /// interior cell of the key's B-tree carries up to a kilobyte of a row and its overflow
    /// chain, which a lookup reads at each level (docs/benchmarks-history.md, History).
    static let treeTableSchema = """
        CREATE TABLE journal_tree(
            level INTEGER NOT NULL,
            idx INTEGER NOT NULL,
            hashes BLOB NOT NULL CHECK (length(hashes) BETWEEN 32 AND 8192 AND length(hashes) % 32 = 0),
            PRIMARY KEY (level, idx)
        );
        """

    /// A full leaf tile (level 0, 256 hashes) may go: its root is in the tile above, and its
    /// hashes are made again from its events when asked for (`SQLiteJournal.elidesLeafTiles`).
    static let treeTriggersSchema = """
        CREATE TRIGGER journal_tree_no_delete BEFORE DELETE ON journal_tree
            WHEN OLD.level != 0 OR length(OLD.hashes) != 8192
            BEGIN SELECT RAISE(ABORT, 'the journal tree only grows'); END;
        CREATE TRIGGER journal_tree_append_only BEFORE UPDATE ON journal_tree
            WHEN NEW.level != OLD.level OR NEW.idx != OLD.idx OR length(NEW.hashes) < length(OLD.hashes)
                OR substr(NEW.hashes, 1, length(OLD.hashes)) != OLD.hashes
            BEGIN SELECT RAISE(ABORT, 'the journal tree only grows'); END;
        """

    /// The tiles of a file made before they moved to a rowid table, copied into one (the same
    /// rows, the same triggers; readers use the same statements on either). The old table is
    /// renamed first, which takes its triggers along and drops them with it.
    static let treeRelayoutSQL = """
        ALTER TABLE journal_tree RENAME TO journal_tree_without_rowid;
        \(treeTableSchema)
        INSERT INTO journal_tree(level, idx, hashes)
            SELECT level, idx, hashes FROM journal_tree_without_rowid ORDER BY level, idx;
        DROP TABLE journal_tree_without_rowid;
        \(treeTriggersSchema)
        """

    /// Version 1 → 2: the id index moves from a unique index on `journal_events(event_id)` to
    /// `journal_event_ids`, filled with every stored event. One transaction.
    static let upgradeFromVersion1SQL = """
        \(idIndexSchema)
        INSERT INTO journal_event_ids(id, position) SELECT event_id, position FROM journal_events ORDER BY event_id;
        UPDATE journal_id_index SET through = (SELECT position FROM journal_head WHERE singleton = 1);
        DROP INDEX journal_events_event_id;
        """

    /// Every trigger name, for tests that tamper through raw SQL.
    public static let immutabilityTriggers = [
        "journal_events_no_update", "journal_events_no_delete", "journal_streams_forward_only",
        "journal_streams_no_delete", "journal_types_no_update", "journal_types_no_delete",
        "journal_dictionaries_no_update", "journal_dictionaries_no_delete", "journal_head_no_delete",
        "journal_head_forward_only", "journal_event_ids_no_update", "journal_event_ids_no_delete",
        "journal_id_index_no_delete", "journal_id_index_forward_only", "journal_tree_no_delete",
        "journal_tree_append_only", "journal_checkpoints_no_update", "journal_checkpoints_no_delete"
    ]

    /// Checks that the file is a journal, creating the schema in an empty, writable file,
    /// upgrading a version 1 file opened for writing to version 2 and a version 3 one to 4.
    /// Returns the schema version in effect: 1 or 3 only for a file of that version opened
    /// read-only (read as it is, nothing written); 2 for a version 2 file, which the store
    /// upgrades to 4 when it writes (`SQLiteJournal.upgradeToTree()`, which needs the journal's
    /// decoding of events).
    /// `loadIndexes: false` creates a new journal without the indexes of `loadIndexSchemas` (a
    /// journal load, which creates them when it finishes).
    @discardableResult
    static func prepareSchema(_ connection: SQLiteConnection, path: String, readOnly: Bool, loadIndexes: Bool = true)
        throws(EventStoreError) -> Int64
    {
        do {
            let applicationID = try connection.scalarInt("PRAGMA application_id") ?? 0
            let tables = try connection.scalarInt("SELECT count(*) FROM sqlite_schema") ?? 0
            if applicationID == Self.applicationID {
                let version = try connection.scalarInt("PRAGMA user_version") ?? 0
                if version == 1 {
                    if readOnly { return 1 }
                    try upgradeFromVersion1(connection)
                    return 2
                }
                if version == 2 { return 2 }
                if version == 3 {
                    if readOnly || connection.isReadOnly { return 3 }
                    try upgradeToStreamEnds(connection, path: path)
                    relayoutTree(connection, path: path)
                    return Self.schemaVersion
                }
                guard version == Self.schemaVersion else {
                    throw EventStoreError(
                        code: .notAJournal,
                        message:
                            "\(path): journal schema version \(version) is not supported "
                            + "(expected \(Self.schemaVersion))"
                    )
                }
                if !readOnly { relayoutTree(connection, path: path) }
                return version
            }
            guard applicationID == 0, tables == 0 else {
                throw EventStoreError(code: .notAJournal, message: "\(path) is a SQLite database but not a journal")
            }
            guard !readOnly else {
                throw EventStoreError(
                    code: .missing, message: "\(path) is empty: no journal has been written there yet")
            }
            try connection.begin(.immediate)
            do {
                // Re-check inside the write lock: another process may have just created it.
                if try connection.scalarInt("PRAGMA application_id") == Self.applicationID {
                    try connection.commit()
                    return try connection.scalarInt("PRAGMA user_version") ?? Self.schemaVersion
                }
                try connection.execute(Self.schema(loadIndexes: loadIndexes))
                try connection.execute("PRAGMA application_id = \(Self.applicationID)")
                try connection.execute("PRAGMA user_version = \(Self.schemaVersion)")
                try connection.commit()
                return Self.schemaVersion
            } catch {
                connection.rollback()
                throw error
            }
        } catch let error as SQLiteError {
            throw EventStoreError(sqlite: error, doing: "opening \(path)")
        } catch let error as EventStoreError {
            throw error
        } catch {
            throw EventStoreError(code: .io, message: "opening \(path): \(error)")
        }
    }

    /// Moves the tiles of a file whose `journal_tree` is still `WITHOUT ROWID` into a rowid table
    /// (`treeRelayoutSQL`), in one write transaction, re-checked under the lock; says so on a
    /// terminal (seconds at 10 M events). Nothing to do, and no lock taken, for any other file.
    /// Only an optimization: when the move fails (another writer keeps the lock past the busy
    /// timeout, a full disk), it is rolled back and the file keeps the layout it had, which
    /// reads and writes the same; the next writer tries again.
    private static func relayoutTree(_ connection: SQLiteConnection, path: String) {
        guard (try? treeIsWithoutRowid(connection)) == true, (try? connection.begin(.immediate)) != nil else {
            return
        }
        do {
            if try treeIsWithoutRowid(connection) {
                let tiles = try connection.scalarInt("SELECT count(*) FROM journal_tree") ?? 0
                let progress = UpgradeProgress(
                    total: tiles, what: "moving the Merkle tree of \(path) to a rowid table", unit: "tiles")
                progress.report(0)
                defer { progress.finish() }
                try connection.execute(Self.treeRelayoutSQL)
                progress.report(tiles)
            }
            try connection.commit()
        } catch {
            connection.rollback()
        }
    }

    /// True when `journal_tree` is declared `WITHOUT ROWID` (files made before the rowid layout).
    static func treeIsWithoutRowid(_ connection: SQLiteConnection) throws -> Bool {
        let statement = try connection.prepare(
            "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'journal_tree'")
        guard try statement.step() else { return false }
        return statement.text(at: 0).uppercased().contains("WITHOUT ROWID")
    }

    /// Upgrades a version 3 journal to 4 in one write transaction (re-checked under the lock:
    /// another process may have just done it); says so on a terminal.
    private static func upgradeToStreamEnds(_ connection: SQLiteConnection, path: String) throws {
        try connection.begin(.immediate)
        do {
            if try connection.scalarInt("PRAGMA user_version") == 3 {
                let streams = try connection.scalarInt("SELECT count(*) FROM journal_streams") ?? 0
                let progress = UpgradeProgress(
                    total: streams, what: "recording the last event of each stream of \(path)", unit: "streams")
                progress.report(0)
                defer { progress.finish() }
                try addStreamEnds(connection)
                progress.report(streams)
            }
            try connection.commit()
        } catch {
            connection.rollback()
            throw error
        }
    }

    /// Upgrades a version 1 journal in one write transaction (re-checked under the lock: another
    /// process may have just done it).
    private static func upgradeFromVersion1(_ connection: SQLiteConnection) throws {
        try connection.begin(.immediate)
        do {
            if try connection.scalarInt("PRAGMA user_version") == 1 {
                try connection.execute(Self.upgradeFromVersion1SQL)
                try connection.execute("PRAGMA user_version = 2")
            }
            try connection.commit()
        } catch {
            connection.rollback()
            throw error
        }
    }
}
