import EventStore

/// Raw-SQL tampering with a PostgreSQL journal, through the store's own writer session.
struct PostgresTampering: Tampering {
    let store: PostgresEventStore

    private func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws {
        try store.withConnection { pg in _ = try pg.query(sql, parameters) }
    }

    func updateIsRefused(at position: Int64) -> Bool {
        (try? execute("UPDATE journal_events SET occurred_at = occurred_at + 1 WHERE position = \(position)")) == nil
    }

    func deleteIsRefused(at position: Int64) -> Bool {
        (try? execute("DELETE FROM journal_events WHERE position = \(position)")) == nil
    }

    func sqlIsRefused(_ sql: String) -> Bool {
        (try? execute(sql)) == nil
    }

    func dropImmutabilityTriggers() throws {
        try store.withConnection { pg in
            for trigger in PostgresEventStore.immutabilityTriggers {
                try pg.execute("DROP TRIGGER \(trigger.name) ON \(trigger.table)")
            }
        }
    }

    private func bytes(_ column: String, at position: Int64) throws -> [UInt8] {
        try store.withConnection { pg in
            try pg.query("SELECT \(column) FROM journal_events WHERE position = $1", [.int64(position)]).bytes(0, 0)
        }
    }

    func singleByteChanges(at position: Int64) throws -> [StorageChange] {
        var changes: [StorageChange] = []
        for column in ["event_id", "payload", "hash"] {
            let original = try bytes(column, at: position)
            for index in original.indices {
                var changed = original
                changed[index] ^= 0x40
                let set = "UPDATE journal_events SET \(column) = $1 WHERE position = $2"
                changes.append(
                    StorageChange(
                        label: "\(column)[\(index)]",
                        apply: { try execute(set, [.bytea(changed), .int64(position)]) },
                        revert: { try execute(set, [.bytea(original), .int64(position)]) }))
            }
        }
        for column in ["stream_id", "version", "type_id", "occurred_at", "recorded_at", "codec", "data_len", "meta_len"]
        {
            let flip = "UPDATE journal_events SET \(column) = \(column) # 64 WHERE position = \(position)"
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
        try execute("UPDATE journal_streams SET name = $1 WHERE name = $2", [.text(other), .text(stream.rawValue)])
    }

    func renameType(_ type: String, to other: String) throws {
        try execute("UPDATE journal_types SET name = $1 WHERE name = $2", [.text(other), .text(type)])
    }

    func deleteEvent(at position: Int64) throws {
        try execute("DELETE FROM journal_events WHERE position = \(position)")
    }

    func swapEvents(_ a: Int64, _ b: Int64) throws {
        try store.withConnection { pg in
            try pg.execute(
                """
                UPDATE journal_events SET position = -1 WHERE position = \(a);
                UPDATE journal_events SET position = \(a) WHERE position = \(b);
                UPDATE journal_events SET position = \(b) WHERE position = -1;
                """)
        }
    }

    func insertCopy(of position: Int64, at newPosition: Int64, newID: String) throws {
        try execute(
            """
            INSERT INTO journal_events(position, stream_id, version, event_id, type_id, occurred_at, recorded_at,
                                       codec, data_len, meta_len, payload, hash)
            SELECT $1, stream_id, version + 1000, convert_to($2, 'UTF8'), type_id, occurred_at, recorded_at, codec,
                   data_len, meta_len, payload, hash FROM journal_events WHERE position = $3
            """, [.int64(newPosition), .text(newID), .int64(position)])
    }

    func overwrite(at position: Int64, data: [UInt8], hash: [UInt8]) throws {
        try execute(
            """
            UPDATE journal_events SET codec = 0, data_len = $1,
                   payload = $2 || substr(payload, data_len::int + 1), hash = $3
            WHERE position = $4 AND codec = 0
            """, [.int64(Int64(data.count)), .bytea(data), .bytea(hash), .int64(position)])
    }
}
