extension SQLiteJournal {
    /// The statements on hot paths, kept in an array slot each: looking one up costs an index,
    /// not the hash of its SQL text.
    enum Hot: Int, CaseIterable {
        case insertEvent, savepoint, release, rollbackTo, streamByName, streamByID, typeByName, typeByID, lastVersion,
            readAll, readForward, readBackward, insertStream, insertType, head, idIndexThrough, indexedID, tailIDs,
            eventByID, copyIDs, moveIDIndex, insertStreamIfAbsent, insertEventRows, recordStreamEnd, streamEnd

        var sql: String {
            switch self {
            case .insertEvent:
                return """
                    INSERT INTO journal_events(position, stream_id, version, event_id, \
                    type_id, occurred_at, recorded_at,
                                               codec, data_len, meta_len, payload, hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            case .insertEventRows:
                // `PendingEventRows.width` rows of `insertEvent` in one statement.
                return """
                    INSERT INTO journal_events(position, stream_id, version, event_id, \
                    type_id, occurred_at, recorded_at,
                                               codec, data_len, meta_len, payload, hash)
                    VALUES \(Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: PendingEventRows.width)
                                .joined(separator: ", "))
                    """
            case .savepoint: return "SAVEPOINT journal_append"
            case .release: return "RELEASE journal_append"
            case .rollbackTo: return "ROLLBACK TO journal_append"
            case .streamByName: return "SELECT id FROM journal_streams WHERE name = ?"
            case .streamByID: return "SELECT name FROM journal_streams WHERE id = ?"
            case .typeByName: return "SELECT id FROM journal_types WHERE name = ?"
            case .typeByID: return "SELECT name FROM journal_types WHERE id = ?"
            case .lastVersion: return "SELECT max(version) FROM journal_events WHERE stream_id = ?"
            // Stream reads also select the hash of the event before each one, so that every event
            // read is checked against its chain link (`ChainLinkCheck`); a read of the log in
            // position order has it in the row before.
            case .readAll:
                return
                    "SELECT \(SQLiteJournal.columns) FROM journal_events WHERE position >= ? ORDER BY position LIMIT ?"
            case .readForward:
                return
                    "SELECT \(SQLiteJournal.checkedColumns) FROM journal_events WHERE stream_id = ? AND "
                    + "version >= ? ORDER BY version LIMIT ?"
            case .readBackward:
                return
                    "SELECT \(SQLiteJournal.checkedColumns) FROM journal_events WHERE stream_id = ? AND "
                    + "version <= ? ORDER BY version DESC LIMIT ?"
            case .idIndexThrough: return "SELECT through FROM journal_id_index WHERE singleton = 1"
            case .indexedID: return "SELECT position FROM journal_event_ids WHERE id = ?"
            case .tailIDs:
                return
                    "SELECT position, event_id FROM journal_events WHERE position > ? AND "
                    + "position <= ? ORDER BY position"
            case .eventByID:
                // One statement, so one snapshot: the index, then the tail it does not cover yet.
                return """
                    SELECT \(SQLiteJournal.columns) FROM journal_events
                    WHERE position = (SELECT position FROM journal_event_ids WHERE id = ?1)
                    UNION ALL
                    SELECT \(SQLiteJournal.columns) FROM journal_events
                    WHERE position > (SELECT through FROM journal_id_index WHERE singleton = 1) AND event_id = ?1
                    LIMIT 1
                    """
            case .copyIDs:
                return """
                    INSERT OR IGNORE INTO journal_event_ids(id, position)
                    SELECT event_id, position FROM journal_events WHERE position > ? AND position <= ? ORDER BY event_id
                    """
            case .moveIDIndex: return "UPDATE journal_id_index SET through = ? WHERE singleton = 1"
            case .insertStream: return "INSERT INTO journal_streams(name) VALUES (?)"
            case .insertStreamIfAbsent:
                return "INSERT INTO journal_streams(name) VALUES (?) ON CONFLICT(name) DO NOTHING"
            case .insertType: return "INSERT INTO journal_types(name) VALUES (?)"
            case .head: return "SELECT position, hash FROM journal_head WHERE singleton = 1"
            case .recordStreamEnd: return SQLiteEventStore.recordStreamEndSQL
            case .streamEnd: return "SELECT last_version, last_position FROM journal_streams WHERE id = ?"
            }
        }
    }

    /// A hot statement, reset and with its bindings cleared.
    func statement(_ hot: Hot) throws(SQLiteError) -> SQLiteStatement {
        if let statement = hotStatements[hot.rawValue] {
            statement.reset()
            return statement
        }
        let statement = try sql.prepare(hot.sql, persistent: true)
        hotStatements[hot.rawValue] = statement
        return statement
    }
}
