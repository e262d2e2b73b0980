/// A payload's field table: its fields in catalog order and how the payload is made from their
/// values. Decoding, the canonical `data`, equality and the field rules of every catalog payload
/// come from its table (see ``CatalogPayload``).
///
/// ```swift
/// static let table = PayloadTable(OTPRejected.init,
///                                 PayloadField("reason", { $0.reason }),
///                                 PayloadField("attemptsRemaining", { $0.attemptsRemaining }, .atLeast(0)))
/// ```
///
/// The fields, each of its own type, are turned once into closures over the payload: the table's
/// own type depends on the payload alone, so code that uses it is specialized for the payload
/// and the writer (code generic over the field types would look up their metadata per call).
final class PayloadTable<Payload>: Sendable {
    /// Reads every field of the reader's object with its JSON type rules, makes the payload.
    private let make: @Sendable (FieldReader) throws(EventDecodingError) -> Payload
    /// Each field's key and value as written, in table order.
    private let outputs: [(key: String, output: @Sendable (Payload) -> FieldOutput)]
    /// The fields' rules, in table order, then the rule across fields.
    private let checks: [@Sendable (Payload) -> (field: String, rule: String)?]
    /// Whether two payloads hold equal values, field by field.
    private let equal: @Sendable (Payload, Payload) -> Bool

    /// - Parameters:
    ///   - make: the payload's memberwise initializer, the values in table order.
    ///   - rule: a rule across fields, checked after the fields' own rules.
    init<each Value: FieldValue>(
        _ make: @escaping @Sendable (repeat each Value) -> Payload,
        _ fields: repeat PayloadField<Payload, each Value>,
        rule: (@Sendable (Payload) -> (field: String, rule: String)?)? = nil
    ) {
        let fields = (repeat each fields)
        self.make = { r throws(EventDecodingError) in make(repeat try (each fields).read(r)) }
        var outputs: [(key: String, output: @Sendable (Payload) -> FieldOutput)] = []
        var checks: [@Sendable (Payload) -> (field: String, rule: String)?] = []
        for field in repeat each fields {
            outputs.append((field.key, { field.value($0).output }))
            if !field.rules.isEmpty { checks.append(field.violation) }
        }
        if let rule { checks.append(rule) }
        self.outputs = outputs
        self.checks = checks
        equal = { lhs, rhs in
            for field in repeat each fields {
                guard field.value(lhs) == field.value(rhs) else { return false }
            }
            return true
        }
    }

    /// The payload of the reader's object: every field read with its JSON type rules.
    func read(_ r: FieldReader) throws(EventDecodingError) -> Payload { try make(r) }

    /// The canonical fields of `payload`, in table order, absent optional fields skipped.
    func write<W: EventDataWriter>(_ payload: Payload, to writer: inout W) {
        for entry in outputs { entry.output(payload).write(entry.key, to: &writer) }
    }

    /// The value rules, in table order, then the rule across fields; `r` names the field.
    func check(_ payload: Payload, _ r: () -> FieldReader) throws(EventDecodingError) {
        for check in checks {
            if let broken = check(payload) { throw r().invalid(broken.field, broken.rule) }
        }
    }

    func equalFields(_ lhs: Payload, _ rhs: Payload) -> Bool { equal(lhs, rhs) }
}
