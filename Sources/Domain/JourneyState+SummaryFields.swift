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

extension JourneyState {
    /// Appends the summary's values to `out` (see ``SummaryFieldsWriter``).
    public func writeSummaryFields(into out: inout SummaryFieldsWriter) {
        switch self {
        case let .threeDS(state): state.writeSummaryFields(into: &out)
        case let .card(state): state.writeSummaryFields(into: &out)
        }
    }
}

extension ThreeDSTransaction.State {
    /// ``summary()``'s values, in its order (keep the two in step: the tests compare them).
    public func writeSummaryFields(into out: inout SummaryFieldsWriter) {
        // The challenge and the information are taken out once: the queries that read them
        // (`lastUIType`, `otpSubmissions`, …) would each copy them again, and `uiTypesSeen` would
        // make an array, for every state a replay renders.
        let challenge = self.challenge
        let info = self.info
        out.bytes.reserveCapacity(out.bytes.count + 512)
        out.string("3ds")
        out.string(statusName)
        var step: String?
        if case let .challenge(_, running) = self { step = running.step.name }
        out.string(step)
        out.bool(isTerminal)
        out.string(outcomeKey.rawValue)
        out.string(info?.directoryServerID)
        out.string(info?.messageVersion.rawValue)
        out.string(info?.authResponseStatus?.rawValue)
        out.timestamp(challenge?.startedAt)
        if let challenge { out.int(challenge.timeoutSeconds) } else { out.nullField() }
        out.timestamp(challenge?.deadline)
        out.string(challenge?.lastCounter?.text)
        if let (counter, action) = requestInFlight {
            out.bytes.append(UInt8(ascii: "{"))
            out.key("counter", first: true)
            JSONWriter.writeString(counter.text, into: &out.bytes)
            out.key("action")
            JSONWriter.writeString(action.rawValue, into: &out.bytes)
            out.bytes.append(UInt8(ascii: "}"))
            out.end()
        } else {
            out.nullField()
        }
        out.string(challenge?.lastUIType?.rawValue)
        let seen = challenge?.uiTypesSeenBits ?? 0
        out.strings(ACSUIType.allCases.lazy.filter { seen & $0.bit != 0 }.map(\.rawValue))
        out.int(challenge?.requests ?? 0)
        out.int(challenge?.otpSubmissions ?? 0)
        out.int(challenge?.resends ?? 0)
        out.bool(challenge?.cancelRequested ?? false)
        let (finalStatus, errorCode) = finalStatusAndErrorCode
        out.string(finalStatus)
        out.string(errorCode)
    }
}

extension CardDigitization.State {
    /// ``summary()``'s values, in its order (keep the two in step: the tests compare them).
    public func writeSummaryFields(into out: inout SummaryFieldsWriter) {
        let journey = self.journey
        let activation = self.activation
        out.string("card")
        out.string(statusName)
        var step: String?
        if case let .pendingActivation(_, running) = self { step = running.step.label }
        out.string(step)
        out.bool(isTerminal)
        out.string(outcomeKey.rawValue)
        out.string(journey?.inputMethod.rawValue)
        out.string(journey?.eligibilityErrorCode)
        out.bool(journey?.termsAccepted ?? false)
        out.string(journey?.language)
        out.string(digitalCardID)
        out.strings((activation?.methods ?? []).lazy.map(\.id))
        if let method = selectedMethod {
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
        out.bool(resumed)
        out.int(activation?.selections ?? 0)
        out.int(attempts)
        out.int(activation?.otpRejections ?? 0)
        out.int(activation?.interruptions ?? 0)
        if let resumedWithTAV = activation?.appToAppResumedWithTAV { out.bool(resumedWithTAV) } else { out.nullField() }
        var activatedBy: String?
        var failureReason: String?
        if let outcome = activationOutcome {
            switch outcome {
            case .activatedByIDV: activatedBy = "idv"
            case .activatedByIssuer: activatedBy = "issuer"
            case let .failed(reason): failureReason = reason.rawValue
            case .cancelled, .expired: break
            }
        }
        out.string(activatedBy)
        out.string(failureReason)
    }
}

extension SummaryFieldsWriter {
    mutating func nullField() {
        null()
        end()
    }
}
