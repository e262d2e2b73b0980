import CSQLite
import EventStore

/// One way to change a stored event behind the store's back, and how to undo it.
struct StorageChange {
    let label: String
    let apply: () throws -> Void
    let revert: () throws -> Void
}

/// A backend's raw access to its storage, so the same integrity tests run everywhere.
protocol Tampering {
    /// Tries to change the event at `position` through the database, with the schema's guards in
    /// place; true when the database refused.
    func updateIsRefused(at position: Int64) -> Bool
    func deleteIsRefused(at position: Int64) -> Bool
    /// Removes the guards (triggers), as an attacker with file access would.
    func dropImmutabilityTriggers() throws
    /// Every single-byte change of every stored field of the event at `position`.
    func singleByteChanges(at position: Int64) throws -> [StorageChange]
    /// Changes one byte of the stream's stored name (shared by all its events).
    func renameStream(_ stream: StreamName, to other: String) throws
    /// Changes the stored name of an event type.
    func renameType(_ type: String, to other: String) throws
    func deleteEvent(at position: Int64) throws
    /// Exchanges the stored contents of two positions.
    func swapEvents(_ a: Int64, _ b: Int64) throws
    /// Stores a copy of the event at `position` at `newPosition` (with a fresh event id).
    func insertCopy(of position: Int64, at newPosition: Int64, newID: String) throws
    /// Replaces the event's data (stored uncompressed) and its hash.
    func overwrite(at position: Int64, data: [UInt8], hash: [UInt8]) throws
    /// Runs statements through the store's connection, guards in place; true when refused.
    func sqlIsRefused(_ sql: String) -> Bool
}

/// Raw-SQL tampering with a SQLite journal, through the store's own connection.
struct SQLiteTampering: Tampering {
    let store: SQLiteEventStore

    func updateIsRefused(at position: Int64) -> Bool {
        (try? store.withConnection { db in
            try db.execute("UPDATE journal_events SET occurred_at = occurred_at + 1 WHERE position = \(position)")
        }) == nil
    }

    func deleteIsRefused(at position: Int64) -> Bool {
        (try? store.withConnection { db in try db.execute("DELETE FROM journal_events WHERE position = \(position)") })
            == nil
    }

    func sqlIsRefused(_ sql: String) -> Bool {
        (try? store.withConnection { db in try db.execute(sql) }) == nil
    }

    func dropImmutabilityTriggers() throws {
        try store.withConnection { db in
            for trigger in SQLiteEventStore.immutabilityTriggers { try db.execute("DROP TRIGGER \(trigger)") }
        }
    }

    private func blob(_ column: String, at position: Int64) throws -> [UInt8] {
        try store.withConnection { db in
            let statement = try db.prepare("SELECT \(column) FROM journal_events WHERE position = ?")
            statement.bind(position, at: 1)
            _ = try statement.step()
            return statement.blob(at: 0)
        }
    }

    private func setBlob(_ column: String, _ value: [UInt8], at position: Int64) throws {
        try store.withConnection { db in
            let statement = try db.prepare("UPDATE journal_events SET \(column) = ? WHERE position = ?")
            statement.bind(blob: value, at: 1)
            statement.bind(position, at: 2)
            try statement.run()
        }
    }

    private func execute(_ sql: String) throws { try store.withConnection { db in try db.execute(sql) } }

    func singleByteChanges(at position: Int64) throws -> [StorageChange] {
        var changes: [StorageChange] = []
        for column in ["event_id", "payload", "hash"] {
            let original = try blob(column, at: position)
            for index in original.indices {
                var changed = original
                changed[index] ^= 0x40
                changes.append(
                    StorageChange(
                        label: "\(column)[\(index)]",
                        apply: { try setBlob(column, changed, at: position) },
                        revert: { try setBlob(column, original, at: position) }))
            }
        }
        // Integers: flip bit 6 (x XOR 64, written without a XOR operator).
        for column in ["stream_id", "version", "type_id", "occurred_at", "recorded_at", "codec", "data_len", "meta_len"]
        {
            let flip =
                "UPDATE journal_events SET \(column) = (\(column) | 64) - (\(column) & 64) WHERE position = \(position)"
            changes.append(StorageChange(label: column, apply: { try execute(flip) }, revert: { try execute(flip) }))
        }
        changes.append(
            StorageChange(
                label: "position",
                apply: {
                    try execute(
                        "UPDATE journal_events SET position = position + 4294967296 WHERE position = \(position)")
                },
                revert: {
                    try execute(
                        "UPDATE journal_events SET position = position - 4294967296 WHERE "
                            + "position = \(position + 4_294_967_296)"
                    )
                }))
        return changes
    }

    func renameStream(_ stream: StreamName, to other: String) throws {
        try store.withConnection { db in
            let statement = try db.prepare("UPDATE journal_streams SET name = ? WHERE name = ?")
            statement.bind(other, at: 1)
            statement.bind(stream.rawValue, at: 2)
            try statement.run()
        }
    }

    func renameType(_ type: String, to other: String) throws {
        try store.withConnection { db in
            let statement = try db.prepare("UPDATE journal_types SET name = ? WHERE name = ?")
            statement.bind(other, at: 1)
            statement.bind(type, at: 2)
            try statement.run()
        }
    }

    func deleteEvent(at position: Int64) throws {
        try execute("DELETE FROM journal_events WHERE position = \(position)")
    }

    func swapEvents(_ a: Int64, _ b: Int64) throws {
        try execute(
            """
            UPDATE journal_events SET position = -1 WHERE position = \(a);
            UPDATE journal_events SET position = \(a) WHERE position = \(b);
            UPDATE journal_events SET position = \(b) WHERE position = -1;
            """)
    }

    func insertCopy(of position: Int64, at newPosition: Int64, newID: String) throws {
        try store.withConnection { db in
            let statement = try db.prepare(
                """
                INSERT INTO journal_events(position, stream_id, version, event_id, type_id, occurred_at, recorded_at,
                                           codec, data_len, meta_len, payload, hash)
                SELECT ?, stream_id, version + 1000, ?, type_id, occurred_at, recorded_at, codec, data_len, meta_len,
                       payload, hash FROM journal_events WHERE position = ?
                """)
            statement.bind(newPosition, at: 1)
            statement.bind(newID, at: 2)
            statement.bind(position, at: 3)
            try statement.run()
        }
    }

    func overwrite(at position: Int64, data: [UInt8], hash: [UInt8]) throws {
        try store.withConnection { db in
            let statement = try db.prepare(
                """
                UPDATE journal_events SET codec = 0, data_len = ?, payload = ? || \
                coalesce(substr(payload, data_len + 1), x''),
                       hash = ? WHERE position = ? AND codec = 0
                """)
            statement.bind(Int64(data.count), at: 1)
            statement.bind(blob: data, at: 2)
            statement.bind(blob: hash, at: 3)
            statement.bind(position, at: 4)
            try statement.run()
        }
    }
}
