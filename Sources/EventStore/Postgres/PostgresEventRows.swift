/// Event rows waiting to be sent, by column: they go out as one
/// `INSERT … SELECT * FROM unnest($1, …, $12)` per chunk (binary arrays), inside the commit's
/// pipeline. One statement per chunk instead of one per row keeps the per-row cost to the
/// server's insert itself.
struct PostgresEventRows {
    var position: [Int64?] = []
    var streamID: [Int64?] = []
    var version: [Int64?] = []
    var eventID: [[UInt8]] = []
    var typeID: [Int64?] = []
    var occurredAt: [Int64?] = []
    var recordedAt: [Int64?] = []
    var codec: [Int64?] = []
    var dataLength: [Int64?] = []
    var metaLength: [Int64?] = []
    var payload: [[UInt8]] = []
    var hash: [[UInt8]] = []

    var count: Int { position.count }
    var isEmpty: Bool { position.isEmpty }

    static let insert = """
        INSERT INTO journal_events(position, stream_id, version, event_id, type_id, occurred_at, recorded_at,
                                   codec, data_len, meta_len, payload, hash)
        SELECT * FROM unnest($1::int8[], $2::int8[], $3::int8[], $4::bytea[], $5::int8[], $6::int8[], $7::int8[],
                             $8::int8[], $9::int8[], $10::int8[], $11::bytea[], $12::bytea[])
        """

    mutating func append(
        position: Int64, streamID: Int64, version: Int64, eventID: [UInt8], typeID: Int64,
        occurredAt: Int64, recordedAt: Int64, codec: Int64, dataLength: Int64, metaLength: Int64?,
        payload: [UInt8], hash: [UInt8]
    ) {
        self.position.append(position)
        self.streamID.append(streamID)
        self.version.append(version)
        self.eventID.append(eventID)
        self.typeID.append(typeID)
        self.occurredAt.append(occurredAt)
        self.recordedAt.append(recordedAt)
        self.codec.append(codec)
        self.dataLength.append(dataLength)
        self.metaLength.append(metaLength)
        self.payload.append(payload)
        self.hash.append(hash)
    }

    /// The INSERT statements, `chunk` rows each.
    func statements(chunk: Int) -> [PostgresStatement] {
        var statements: [PostgresStatement] = []
        var start = 0
        while start < count {
            let end = min(start + chunk, count)
            let range = start..<end
            statements.append(
                PostgresStatement(
                    Self.insert,
                    [
                        .int64Array(Array(position[range])), .int64Array(Array(streamID[range])),
                        .int64Array(Array(version[range])), .byteaArray(Array(eventID[range])),
                        .int64Array(Array(typeID[range])), .int64Array(Array(occurredAt[range])),
                        .int64Array(Array(recordedAt[range])), .int64Array(Array(codec[range])),
                        .int64Array(Array(dataLength[range])), .int64Array(Array(metaLength[range])),
                        .byteaArray(Array(payload[range])), .byteaArray(Array(hash[range]))
                    ]))
            start = end
        }
        return statements
    }
}
