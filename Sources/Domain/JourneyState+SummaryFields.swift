import JournalCore

/// The summary's top-level values written as compact JSON, one after the other, straight from
/// the state: the bytes `JSONWriter.write` gives for each value of ``JourneyState/summary()``, in
/// the same order, without building the object (a replay against a record renders the state
/// after every event; the tests compare the two renderings on every state of a simulated log).
public struct SummaryFieldsWriter {
    /// The values, one after the other.
    public var bytes: [UInt8]
    /// Where each value ends in `bytes`; it begins where the previous one ends.
    public var ends: [Int]

    public init(bytes: [UInt8] = [], ends: [Int] = []) {
        self.bytes = bytes
        self.ends = ends
    }

    mutating func end() { ends.append(bytes.count) }

    mutating func string(_ value: String?) {
        if let value { JSONWriter.writeString(value, into: &bytes) } else { null() }
        end()
    }

    mutating func null() { bytes.append(contentsOf: "null".utf8) }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        end()
    }

    mutating func int<Value: BinaryInteger>(_ value: Value) {
        appendDecimal(value)
        end()
    }

    mutating func timestamp(_ value: Timestamp?) {
        if let value {
            bytes.append(UInt8(ascii: "\""))
            value.write(into: &bytes)
            bytes.append(UInt8(ascii: "\""))
        } else {
            null()
        }
        end()
    }

    /// `String(value)`'s digits, without the string.
    private mutating func appendDecimal<Value: BinaryInteger>(_ value: Value) {
        let wide = Int64(value)
        if wide < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = wide.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[31 - count] = UInt8(truncatingIfNeeded: 0x30 &+ magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(32 - count)...]))
        }
    }

    /// `["a","b"]` for an array of strings.
    mutating func strings<Items: Sequence<String>>(_ items: Items) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(item, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        end()
    }

    /// A key and a colon inside an object (`,` before it unless first).
    mutating func key(_ key: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(contentsOf: "\":".utf8)
    }
}

/// The summary fields in which a state differs from the state before it (a replay against a
/// record keeps only those): their indices and values, compared value by value without
/// rendering the fields that did not change, and, when asked for, their values before.
///
/// Two values compare equal exactly when ``SummaryFieldsWriter`` writes the same bytes for
/// them, so the changes are those a byte-by-byte comparison of the two renderings gives (the
/// tests compare the two on every state of a simulated log).
public struct SummaryChangesWriter {
    /// The changed fields' values, in order; every field's when ``writesEveryField``.
    public var values = SummaryFieldsWriter()
    /// The indices of the fields that changed, in order.
    public var changed: [Int32] = []
    /// The changed fields' values before, when ``keepsOldValues``.
    public var oldValues = SummaryFieldsWriter()
    public var writesEveryField: Bool
    public var keepsOldValues: Bool
    /// False when there is no state before: nothing is compared (every field is written when
    /// ``writesEveryField``, none otherwise).
    var compares = true
    var index: Int32 = 0

    public init(writesEveryField: Bool = false, keepsOldValues: Bool = false) {
        self.writesEveryField = writesEveryField
        self.keepsOldValues = keepsOldValues
    }

    /// Empties the writer for the next state, keeping its storage.
    public mutating func removeAll() {
        values.bytes.removeAll(keepingCapacity: true)
        values.ends.removeAll(keepingCapacity: true)
        changed.removeAll(keepingCapacity: true)
        oldValues.bytes.removeAll(keepingCapacity: true)
        oldValues.ends.removeAll(keepingCapacity: true)
    }

    mutating func begin(comparing: Bool) {
        compares = comparing
        index = 0
    }

    /// The next field: `value` now, `old` before (unused when nothing is compared); `write`
    /// writes either as the field's value.
    @inline(__always)
    mutating func field<Value: Equatable>(
        _ value: Value, _ old: Value, _ write: (Value, inout SummaryFieldsWriter) -> Void
    ) {
        let differs = compares && value != old
        if differs {
            changed.append(index)
            if keepsOldValues { write(old, &oldValues) }
        }
        if differs || writesEveryField { write(value, &values) }
        index += 1
    }
}

/// Two strings a summary writes as one nested object's values (compared as written).
private struct SummaryPair: Equatable {
    let first: String
    let second: String
}

extension JourneyState {
    /// Appends the summary's values to `out` (see ``SummaryFieldsWriter``).
    public func writeSummaryFields(into out: inout SummaryFieldsWriter) {
        var writer = SummaryChangesWriter(writesEveryField: true)
        swap(&writer.values, &out)
        _ = writeSummaryFields(changedFrom: nil, into: &writer)
        swap(&writer.values, &out)
    }

    /// Writes to `out` the summary fields that differ from those of `before` (every field, when
    /// `before` is nil and `out` writes every field); false, writing nothing, when `before` is
    /// of another category.
    public func writeSummaryFields(changedFrom before: JourneyState?, into out: inout SummaryChangesWriter) -> Bool {
        switch (self, before) {
        case let (.threeDS(state), .threeDS(old)): state.writeSummaryFields(changedFrom: old, into: &out)
        case let (.threeDS(state), nil): state.writeSummaryFields(changedFrom: nil, into: &out)
        case let (.card(state), .card(old)): state.writeSummaryFields(changedFrom: old, into: &out)
        case let (.card(state), nil): state.writeSummaryFields(changedFrom: nil, into: &out)
        case (.threeDS, .card), (.card, .threeDS): return false
        }
        return true
    }
}

extension ThreeDSTransaction.State {
    /// ``summary()``'s values, in its order (keep the two in step: the tests compare them).
    public func writeSummaryFields(into out: inout SummaryFieldsWriter) {
        JourneyState.threeDS(self).writeSummaryFields(into: &out)
    }

    /// ``summary()``'s values that differ from `before`'s (see ``SummaryChangesWriter``).
    func writeSummaryFields(changedFrom before: Self?, into out: inout SummaryChangesWriter) {
        out.begin(comparing: before != nil)
        let old = before ?? self
        let challenge = self.challenge
        let oldChallenge = old.challenge
        let info = self.info
        let oldInfo = old.info
        out.field("3ds", "3ds") { $1.string($0) }
        out.field(statusName, old.statusName) { $1.string($0) }
        out.field(stepName, old.stepName) { $1.string($0) }
        out.field(isTerminal, old.isTerminal) { $1.bool($0) }
        out.field(outcomeKey.rawValue, old.outcomeKey.rawValue) { $1.string($0) }
        out.field(info?.directoryServerID, oldInfo?.directoryServerID) { $1.string($0) }
        out.field(info?.messageVersion.rawValue, oldInfo?.messageVersion.rawValue) { $1.string($0) }
        out.field(info?.authResponseStatus?.rawValue, oldInfo?.authResponseStatus?.rawValue) { $1.string($0) }
        out.field(challenge?.startedAt, oldChallenge?.startedAt) { $1.timestamp($0) }
        out.field(challenge?.timeoutSeconds, oldChallenge?.timeoutSeconds) { value, out in
            if let value { out.int(value) } else { out.nullField() }
        }
        out.field(challenge?.deadline, oldChallenge?.deadline) { $1.timestamp($0) }
        out.field(challenge?.lastCounter?.text, oldChallenge?.lastCounter?.text) { $1.string($0) }
        out.field(inFlightPair, old.inFlightPair) { pair, out in
            if let pair {
                out.bytes.append(UInt8(ascii: "{"))
                out.key("counter", first: true)
                JSONWriter.writeString(pair.first, into: &out.bytes)
                out.key("action")
                JSONWriter.writeString(pair.second, into: &out.bytes)
                out.bytes.append(UInt8(ascii: "}"))
                out.end()
            } else {
                out.nullField()
            }
        }
        out.field(lastUIType?.rawValue, old.lastUIType?.rawValue) { $1.string($0) }
        out.field(challenge?.uiTypesSeenBits ?? 0, oldChallenge?.uiTypesSeenBits ?? 0) { bits, out in
            out.strings(ACSUIType.allCases.lazy.filter { bits & $0.bit != 0 }.map(\.rawValue))
        }
        out.field(challenge?.requests ?? 0, oldChallenge?.requests ?? 0) { $1.int($0) }
        out.field(otpSubmissions, old.otpSubmissions) { $1.int($0) }
        out.field(resends, old.resends) { $1.int($0) }
        out.field(challenge?.cancelRequested ?? false, oldChallenge?.cancelRequested ?? false) { $1.bool($0) }
        let (finalStatus, errorCode) = finalStatusAndErrorCode
        let (oldFinalStatus, oldErrorCode) = old.finalStatusAndErrorCode
        out.field(finalStatus, oldFinalStatus) { $1.string($0) }
        out.field(errorCode, oldErrorCode) { $1.string($0) }
    }

    /// The summary's `step`: the challenge's step, nil outside a challenge.
    private var stepName: String? {
        if case let .challenge(_, running) = self { return running.step.name }
        return nil
    }

    /// The summary's `requestInFlight` as it writes it.
    private var inFlightPair: SummaryPair? {
        requestInFlight.map { SummaryPair(first: $0.counter.text, second: $0.action.rawValue) }
    }
}

extension CardDigitization.State {
    /// ``summary()``'s values, in its order (keep the two in step: the tests compare them).
    public func writeSummaryFields(into out: inout SummaryFieldsWriter) {
        JourneyState.card(self).writeSummaryFields(into: &out)
    }

    /// ``summary()``'s values that differ from `before`'s (see ``SummaryChangesWriter``).
    func writeSummaryFields(changedFrom before: Self?, into out: inout SummaryChangesWriter) {
        out.begin(comparing: before != nil)
        let old = before ?? self
        let journey = self.journey
        let oldJourney = old.journey
        let activation = self.activation
        let oldActivation = old.activation
        out.field("card", "card") { $1.string($0) }
        out.field(statusName, old.statusName) { $1.string($0) }
        out.field(stepLabel, old.stepLabel) { $1.string($0) }
        out.field(isTerminal, old.isTerminal) { $1.bool($0) }
        out.field(outcomeKey.rawValue, old.outcomeKey.rawValue) { $1.string($0) }
        out.field(journey?.inputMethod.rawValue, oldJourney?.inputMethod.rawValue) { $1.string($0) }
        out.field(journey?.eligibilityErrorCode, oldJourney?.eligibilityErrorCode) { $1.string($0) }
        out.field(journey?.termsAccepted ?? false, oldJourney?.termsAccepted ?? false) { $1.bool($0) }
        out.field(journey?.language, oldJourney?.language) { $1.string($0) }
        out.field(digitalCardID, old.digitalCardID) { $1.string($0) }
        out.field(MethodIDs(activation?.methods ?? []), MethodIDs(oldActivation?.methods ?? [])) { ids, out in
            out.strings(ids.methods.lazy.map(\.id))
        }
        out.field(SelectedMethod(selectedMethod), SelectedMethod(old.selectedMethod)) { selected, out in
            if let method = selected.method {
                out.bytes.append(UInt8(ascii: "{"))
                out.key("id", first: true)
                JSONWriter.writeString(method.id, into: &out.bytes)
                out.key("type")
                JSONWriter.writeString(method.type.rawValue, into: &out.bytes)
                if let withCryptogram = method.withCryptogram {
                    out.key("withCryptogram")
                    out.bytes.append(contentsOf: (withCryptogram ? "true" : "false").utf8)
                }
                out.bytes.append(UInt8(ascii: "}"))
                out.end()
            } else {
                out.nullField()
            }
        }
        out.field(resumed, old.resumed) { $1.bool($0) }
        out.field(activation?.selections ?? 0, oldActivation?.selections ?? 0) { $1.int($0) }
        out.field(attempts, old.attempts) { $1.int($0) }
        out.field(activation?.otpRejections ?? 0, oldActivation?.otpRejections ?? 0) { $1.int($0) }
        out.field(activation?.interruptions ?? 0, oldActivation?.interruptions ?? 0) { $1.int($0) }
        out.field(activation?.appToAppResumedWithTAV, oldActivation?.appToAppResumedWithTAV) { value, out in
            if let value { out.bool(value) } else { out.nullField() }
        }
        let (activatedBy, failureReason) = activationEnd
        let (oldActivatedBy, oldFailureReason) = old.activationEnd
        out.field(activatedBy, oldActivatedBy) { $1.string($0) }
        out.field(failureReason, oldFailureReason) { $1.string($0) }
    }

    /// The summary's `step`: the pending activation's step, nil otherwise.
    private var stepLabel: String? {
        if case let .pendingActivation(_, running) = self { return running.step.label }
        return nil
    }

    /// The summary's `activatedBy` and `failureReason`.
    private var activationEnd: (activatedBy: String?, failureReason: String?) {
        guard let outcome = activationOutcome else { return (nil, nil) }
        switch outcome {
        case .activatedByIDV: return ("idv", nil)
        case .activatedByIssuer: return ("issuer", nil)
        case let .failed(reason): return (nil, reason.rawValue)
        case .cancelled, .expired: return (nil, nil)
        }
    }

    /// The offered methods as the summary writes them: their ids.
    private struct MethodIDs: Equatable {
        let methods: [IDVMethod]
        init(_ methods: [IDVMethod]) { self.methods = methods }
        static func == (a: Self, b: Self) -> Bool { a.methods.elementsEqual(b.methods) { $0.id == $1.id } }
    }

    /// The selected method as the summary writes it: id, type and `withCryptogram`.
    private struct SelectedMethod: Equatable {
        let method: IDVMethod?
        init(_ method: IDVMethod?) { self.method = method }
        static func == (a: Self, b: Self) -> Bool {
            guard let x = a.method, let y = b.method else { return a.method == nil && b.method == nil }
            return x.id == y.id && x.type == y.type && x.withCryptogram == y.withCryptogram
        }
    }
}

extension SummaryFieldsWriter {
    mutating func nullField() {
        null()
        end()
    }
}
