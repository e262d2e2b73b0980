// The PostgreSQL journal's tables (schema version 3), created in the first schema of the
// session's `search_path` (`public` unless the connection string sets `options=-csearch_path=…`).
// They mirror the SQLite journal column for column, so both store the same bytes:
//
//   journal_meta(key text PRIMARY KEY, value text)        application = 'journal', schema_version = '3'
//   journal_streams(id bigint PRIMARY KEY, name text COLLATE "C" UNIQUE,   stream names, interned,
//                   last_version bigint, last_position bigint)   and each one's last event, set by
//                                                                every commit that appends to it
//   journal_types(id bigint PRIMARY KEY, name text COLLATE "C" UNIQUE)     event types, interned
//   journal_dictionaries(id bigint PRIMARY KEY, codec text, content bytea, sha256 bytea,
//                        trained_through bigint)          LZ4 dictionaries (same format as SQLite)
//   journal_events(
//     position    bigint PRIMARY KEY   global position 1, 2, 3, … in commit order, no gaps
//     stream_id   bigint               → journal_streams.id
//     version     bigint               0, 1, 2, … within the stream
//     event_id    bytea                a lowercase canonical UUID as 16 bytes, any other spelling
//                                      as its 36 bytes of text, exactly as written
//     type_id     bigint               → journal_types.id
//     occurred_at bigint, recorded_at bigint     ms since the epoch
//     codec       bigint               0: payload raw; n > 0: LZ4 block against dictionary n
//     data_len    bigint, meta_len bigint NULL   lengths of data and meta in the decoded payload
//     payload     bytea                data ‖ meta, raw or compressed
//     hash        bytea                32-byte SHA-256 chain link (layout in ChainHasher.swift))
//   UNIQUE (stream_id, version), UNIQUE (event_id)
//   journal_head(singleton = 1, position, hash)   the last committed position and its hash
//   journal_tree(level bigint, idx bigint, hashes bytea, PRIMARY KEY (level, idx))
//                                        the Merkle tree over the log in tiles (TreeTiles.swift),
//                                        appended by the commit that moves the head
//   journal_checkpoints(id bigint PRIMARY KEY, size bigint, root bytea, note text, signed_at bigint)
//                                        the signed checkpoints the journal kept, in order
//
// No sequences: ids and positions are assigned by the writer holding the append lock (the
// journal_head row, see PostgresJournal.swift), so nothing is consumed by a rolled-back append.
//
// Triggers refuse UPDATE, DELETE and TRUNCATE on events, types, dictionaries, meta and
// checkpoints, DELETE, TRUNCATE and any UPDATE of a stream but moving its last event forward,
// any change of journal_head other than moving it forward, and on journal_tree any DELETE or
// TRUNCATE and any UPDATE that does not keep a tile's old hashes as a prefix.
//
// Version 2 adds the tree and the checkpoints. A version 1 journal is upgraded when a writer
// opens it: the tree is built from the whole log in one transaction holding the append lock
// (PostgresJournal+Tree.swift). Opened read-only, it is read as it is, without a tree.
//
// Version 3 adds each stream's last version and position, which stream reads hold their events
// to (`StreamVersionCheck`). A version 2 journal is upgraded when a writer opens it: the columns
// are filled from the events in one transaction holding the append lock (`streamEndsUpgradeSQL`).
// Opened read-only, it is read as it is, without them.

extension PostgresEventStore {
    static let schemaVersion = "3"

    /// A stream row changes only to move its last event forward, and is never deleted (new in
    /// version 3; before, `journal_streams_immutable` refused every UPDATE). The condition is the
    /// trigger's, so an allowed update calls no function.
    static let streamTriggersSchema = """
        CREATE TRIGGER journal_streams_forward_only BEFORE UPDATE ON journal_streams FOR EACH ROW
            WHEN (NEW.id IS DISTINCT FROM OLD.id OR NEW.name IS DISTINCT FROM OLD.name
                  OR NEW.last_version IS NULL OR NEW.last_position IS NULL
                  OR NEW.last_version < OLD.last_version OR NEW.last_position < OLD.last_position)
            EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_streams_no_delete BEFORE DELETE ON journal_streams
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        """

    /// Records the new ends of a commit's streams, one statement for all of them ($1 ids, $2
    /// versions, $3 positions).
    static let recordStreamEndsSQL = """
        UPDATE journal_streams s SET last_version = e.version, last_position = e.position
        FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS e(id, version, position) WHERE s.id = e.id
        """

    /// Version 2 → 3 (inside the upgrade's transaction, holding the append lock): the columns,
    /// each filled with its stream's last event, then the triggers that let them move forward
    /// only; the schema version changes with `journal_meta`'s trigger lifted.
    static let streamEndsUpgradeSQL = """
        ALTER TABLE journal_streams ADD COLUMN IF NOT EXISTS last_version bigint,
            ADD COLUMN IF NOT EXISTS last_position bigint;
        DROP TRIGGER IF EXISTS journal_streams_immutable ON journal_streams;
        DROP TRIGGER IF EXISTS journal_streams_forward_only ON journal_streams;
        DROP TRIGGER IF EXISTS journal_streams_no_delete ON journal_streams;
        UPDATE journal_streams s SET last_version = e.version, last_position = e.position
        FROM (SELECT DISTINCT ON (stream_id) stream_id, version, position FROM journal_events
              ORDER BY stream_id, version DESC) e
        WHERE s.id = e.stream_id;
        \(streamTriggersSchema)
        DROP TRIGGER journal_meta_immutable ON journal_meta;
        UPDATE journal_meta SET value = '3' WHERE key = 'schema_version';
        CREATE TRIGGER journal_meta_immutable BEFORE UPDATE OR DELETE ON journal_meta
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        """

    /// The Merkle tree's tiles and the kept checkpoints (new in version 2), created with the
    /// schema or by the upgrade (after `journal_refuse_change` exists).
    static let treeSchema = """
        CREATE TABLE journal_tree(
            level bigint NOT NULL,
            idx bigint NOT NULL,
            hashes bytea NOT NULL CHECK (length(hashes) BETWEEN 32 AND 8192 AND length(hashes) % 32 = 0),
            PRIMARY KEY (level, idx)
        );
        CREATE TABLE journal_checkpoints(
            id bigint PRIMARY KEY,
            size bigint NOT NULL,
            root bytea NOT NULL,
            note text NOT NULL,
            signed_at bigint NOT NULL
        );
        CREATE FUNCTION journal_tree_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'UPDATE' OR NEW.level <> OLD.level OR NEW.idx <> OLD.idx
                OR length(NEW.hashes) < length(OLD.hashes)
                OR substring(NEW.hashes FROM 1 FOR length(OLD.hashes)) <> OLD.hashes THEN
                RAISE EXCEPTION 'the journal tree only grows' USING ERRCODE = 'restrict_violation';
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER journal_tree_append_only BEFORE UPDATE OR DELETE ON journal_tree
            FOR EACH ROW EXECUTE FUNCTION journal_tree_append_only();
        CREATE TRIGGER journal_tree_no_truncate BEFORE TRUNCATE ON journal_tree
            FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_checkpoints_immutable BEFORE UPDATE OR DELETE ON journal_checkpoints
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_checkpoints_no_truncate BEFORE TRUNCATE ON journal_checkpoints
            FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change();
        """

    static let schema = """
        CREATE TABLE journal_meta(key text PRIMARY KEY, value text NOT NULL);
        CREATE TABLE journal_streams(
            id bigint PRIMARY KEY,
            name text COLLATE "C" NOT NULL UNIQUE,
            last_version bigint,
            last_position bigint
        );
        CREATE TABLE journal_types(id bigint PRIMARY KEY, name text COLLATE "C" NOT NULL UNIQUE);
        CREATE TABLE journal_dictionaries(
            id bigint PRIMARY KEY,
            codec text NOT NULL,
            content bytea NOT NULL,
            sha256 bytea NOT NULL,
            trained_through bigint NOT NULL
        );
        CREATE TABLE journal_events(
            position bigint PRIMARY KEY,
            stream_id bigint NOT NULL,
            version bigint NOT NULL,
            event_id bytea NOT NULL,
            type_id bigint NOT NULL,
            occurred_at bigint NOT NULL,
            recorded_at bigint NOT NULL,
            codec bigint NOT NULL,
            data_len bigint NOT NULL,
            meta_len bigint,
            payload bytea NOT NULL,
            hash bytea NOT NULL
        );
        ALTER TABLE journal_events ALTER COLUMN payload SET STORAGE EXTERNAL;
        CREATE UNIQUE INDEX journal_events_stream_version ON journal_events(stream_id, version);
        CREATE UNIQUE INDEX journal_events_event_id ON journal_events(event_id);
        CREATE TABLE journal_head(
            singleton integer PRIMARY KEY CHECK (singleton = 1),
            position bigint NOT NULL,
            hash bytea NOT NULL
        );
        INSERT INTO journal_head VALUES (1, 0, '\\x0000000000000000000000000000000000000000000000000000000000000000');
        CREATE FUNCTION journal_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the journal''s % rows are immutable', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
        END $$;
        CREATE FUNCTION journal_head_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'UPDATE' OR NEW.position <= OLD.position OR NEW.singleton <> OLD.singleton THEN
                RAISE EXCEPTION 'the journal head only moves forward' USING ERRCODE = 'restrict_violation';
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER journal_events_immutable BEFORE UPDATE OR DELETE ON journal_events
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_events_no_truncate BEFORE TRUNCATE ON journal_events
            FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change();
        \(streamTriggersSchema)
        CREATE TRIGGER journal_streams_no_truncate BEFORE TRUNCATE ON journal_streams
            FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_types_immutable BEFORE UPDATE OR DELETE ON journal_types
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_types_no_truncate BEFORE TRUNCATE ON journal_types
            FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_dictionaries_immutable BEFORE UPDATE OR DELETE ON journal_dictionaries
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_dictionaries_no_truncate BEFORE TRUNCATE ON journal_dictionaries
            FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_meta_immutable BEFORE UPDATE OR DELETE ON journal_meta
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        CREATE TRIGGER journal_head_forward_only BEFORE UPDATE OR DELETE ON journal_head
            FOR EACH ROW EXECUTE FUNCTION journal_head_forward_only();
        CREATE TRIGGER journal_head_no_truncate BEFORE TRUNCATE ON journal_head
            FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change();
        \(treeSchema)
        INSERT INTO journal_meta VALUES ('application', 'journal'), ('schema_version', '3');
        """

    /// Every trigger, as (name, table), for tests that tamper through raw SQL.
    public static let immutabilityTriggers: [(name: String, table: String)] = [
        ("journal_events_immutable", "journal_events"), ("journal_events_no_truncate", "journal_events"),
        ("journal_streams_forward_only", "journal_streams"), ("journal_streams_no_delete", "journal_streams"),
        ("journal_streams_no_truncate", "journal_streams"),
        ("journal_types_immutable", "journal_types"), ("journal_types_no_truncate", "journal_types"),
        ("journal_dictionaries_immutable", "journal_dictionaries"),
        ("journal_dictionaries_no_truncate", "journal_dictionaries"),
        ("journal_meta_immutable", "journal_meta"), ("journal_head_forward_only", "journal_head"),
        ("journal_head_no_truncate", "journal_head"), ("journal_tree_append_only", "journal_tree"),
        ("journal_tree_no_truncate", "journal_tree"), ("journal_checkpoints_immutable", "journal_checkpoints"),
        ("journal_checkpoints_no_truncate", "journal_checkpoints")
    ]

    /// Version 1 → 2, the tables (the tree is filled by `PostgresJournal.upgradeToTree()`): the
    /// schema version in `journal_meta`, whose rows are otherwise immutable, changes with the
    /// trigger lifted inside the upgrade's transaction.
    static let upgradeFromVersion1SQL = """
        \(treeSchema)
        DROP TRIGGER journal_meta_immutable ON journal_meta;
        UPDATE journal_meta SET value = '2' WHERE key = 'schema_version';
        CREATE TRIGGER journal_meta_immutable BEFORE UPDATE OR DELETE ON journal_meta
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        """

    /// Checks that the session's schema holds a journal, creating it when allowed. Returns the
    /// schema version found: "1" or "2" for a journal the store upgrades when it writes
    /// (`PostgresJournal.upgradeToTree()`, `upgradeToStreamEnds()`), or reads as it is when
    /// read-only.
    @discardableResult
    static func prepareSchema(_ connection: PostgresConnection, configuration: Configuration)
        throws(EventStoreError) -> String
    {
        let location = connection.location
        func state() throws(PostgresError) -> (meta: Bool, events: Bool) {
            let result = try connection.query(
                """
                SELECT (to_regclass('journal_meta') IS NOT NULL)::int, (to_regclass('journal_events') IS NOT NULL)::int
                """)
            return (result.int64(0, 0) == 1, result.int64(0, 1) == 1)
        }
        do {
            var found = try state()
            if !found.meta {
                if found.events {
                    throw EventStoreError(
                        code: .notAJournal,
                        message: "\(location) has journal_events but no journal_meta: not a journal")
                }
                guard configuration.createIfMissing && !configuration.readOnly else {
                    throw EventStoreError(code: .missing, message: "no journal at \(location)")
                }
                try connection.execute("BEGIN")
                do {
                    // Serializes concurrent creators; re-check inside the lock.
                    _ = try connection.query("SELECT pg_advisory_xact_lock(1246973516)")
                    found = try state()
                    if !found.meta { try connection.execute(schema) }
                    try connection.execute("COMMIT")
                } catch {
                    connection.rollback()
                    throw error
                }
            }
            let meta = try connection.query("SELECT key, value FROM journal_meta ORDER BY key")
            var values: [String: String] = [:]
            for row in 0..<meta.rowCount { values[meta.text(row, 0)] = meta.text(row, 1) }
            guard values["application"] == "journal" else {
                throw EventStoreError(code: .notAJournal, message: "\(location) is not a journal")
            }
            guard let version = values["schema_version"], [schemaVersion, "2", "1"].contains(version) else {
                throw EventStoreError(
                    code: .notAJournal,
                    message:
                        "\(location): journal schema version \(values["schema_version"] ?? "?") is not "
                        + "supported (expected \(schemaVersion))"
                )
            }
            return version
        } catch let error as PostgresError {
            throw EventStoreError(postgres: error, doing: "opening \(location)")
        } catch let error as EventStoreError {
            throw error
        } catch {
            throw EventStoreError(code: .io, message: "opening \(location): \(error)")
        }
    }
}
