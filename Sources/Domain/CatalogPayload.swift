import JournalCore

/// The payload of a catalog event with fields, described by its field table. Its `data` is kept
/// as received when decoded, and made from its fields only when asked for when built by a
/// command.
protocol CatalogPayload: Sendable, Equatable {
    /// The payload's fields (see ``PayloadTable``).
    static var table: PayloadTable<Self> { get }
    /// `data` as received when decoded; nil when built by a command, or decoded in place from
    /// stored bytes for a fold, whose `data` is then the canonical one (see
    /// ``JourneyState/apply(type:flatData:occurredAt:)``).
    var received: JSONObject? { get set }
}

extension CatalogPayload {
    /// The envelope's `data` object: as received, or, built by a command, made from the fields
    /// (canonical: table order, absent fields skipped).
    var payloadData: JSONObject { received ?? canonicalData() }

    /// Reads the fields of the reader's object, then checks the catalog's rules on their values.
    init(decoding r: FieldReader) throws(EventDecodingError) {
        self = try Self.table.read(r)
        received = r.keptData
        try checkRules(r)
    }

    /// The catalog's rules beyond the fields' JSON types (shared by decoding and the events'
    /// `checkFields()`); `r` names the field of a failure.
    func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
        try Self.table.check(self, r)
    }

    /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
    func writeFields<W: EventDataWriter>(to builder: inout W) { Self.table.write(self, to: &builder) }

    /// The canonical `data` object of the payload's fields.
    func canonicalData() -> JSONObject {
        var builder = DataBuilder()
        writeFields(to: &builder)
        return builder.object
    }

    /// The fields of `data`, in order: those received, or the canonical ones.
    func writeData<W: EventDataWriter>(to writer: inout W) {
        if let received {
            for entry in received.entries { writer.set(entry.key, value: entry.value) }
        } else {
            writeFields(to: &writer)
        }
    }

    /// Equal fields and equal `data`, whether built or decoded.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        table.equalFields(lhs, rhs) && lhs.payloadData == rhs.payloadData
    }
}
