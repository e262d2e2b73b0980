import Domain
import JournalCore

/// Why a stream does not fold (a rule its event breaks, or its name).
public struct ReplayRuleError: Error, Sendable, Equatable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
}

/// One stream's aggregate as a replay against a record folds it: the rules under test. The
/// journal's own rules are ``DomainReplayFold`` (the command line folds through its own wrapper of
/// the same domain, for the same reasons); a test may fold through a variant of them.
public protocol ReplayFold: SendableMetatype {
    /// The empty aggregate of `stream`'s category.
    static func start(stream: String) throws(ReplayRuleError) -> Self
    /// Applies one stored event (its `data` as stored).
    mutating func replay(type: String, data: UnsafeRawBufferPointer, occurredAt: Timestamp, parser: JSONParser)
        throws(ReplayRuleError)
    /// The state as a JSON object whose keys are the same, in the same order, for every state of
    /// a category (the record keeps the state field by field).
    var replaySummary: JSONObject { get }
    /// Appends the values of ``replaySummary`` to `out` as `JSONWriter` writes them, in its
    /// keys' order, without building the object; false (the default) when the fold cannot, and
    /// the run then takes ``replaySummary``.
    func writeReplayFields(into out: inout SummaryFieldsWriter) -> Bool
    /// Writes to `out` the fields of ``replaySummary`` that differ from those of `before`, this
    /// fold at the version before (as ``writeReplayFields(into:)`` writes them, see
    /// ``SummaryChangesWriter``), without rendering the others; false (the default) when the
    /// fold cannot, and the run then renders every state and compares the bytes.
    func writeReplayChanges(from before: Self, into out: inout SummaryChangesWriter) -> Bool
    /// True when nothing may follow (a terminal state): the run then drops the copy of the state
    /// it keeps for the stream's next version, and makes it again from the fold if one comes.
    var replayEnded: Bool { get }
}

extension ReplayFold {
    public var replayEnded: Bool { false }
    public func writeReplayFields(into _: inout SummaryFieldsWriter) -> Bool { false }
    public func writeReplayChanges(from _: Self, into _: inout SummaryChangesWriter) -> Bool { false }
}

/// The domain's rules: ``JourneyState``, its data read in place when flat (``JSONFlatObject``),
/// else parsed, as every replay does.
public struct DomainReplayFold: ReplayFold {
    public private(set) var state: JourneyState

    public init(state: JourneyState) { self.state = state }

    public static func start(stream: String) throws(ReplayRuleError) -> DomainReplayFold {
        do {
            return DomainReplayFold(state: try JourneyState.initial(for: stream))
        } catch {
            throw ReplayRuleError(reason: "stream: \(error)")
        }
    }

    public mutating func replay(
        type: String, data: UnsafeRawBufferPointer, occurredAt: Timestamp, parser: JSONParser
    ) throws(ReplayRuleError) {
        do {
            let folded: Void? = try JSONFlatObject.withMembers(of: data) { flat throws(DomainRejection) in
                try state.apply(type: type, flatData: flat, occurredAt: occurredAt)
            }
            if folded != nil { return }
            guard let object = try? parser.parse(data).objectValue else {
                throw ReplayRuleError(reason: "the stored data is not a JSON object")
            }
            try state.apply(type: type, data: object, occurredAt: occurredAt)
        } catch let error as DomainRejection {
            throw ReplayRuleError(reason: error.reason)
        } catch let error as ReplayRuleError {
            throw error
        } catch {
            throw ReplayRuleError(reason: "\(error)")
        }
    }

    public var replaySummary: JSONObject { state.summary() }
    public var replayEnded: Bool { state.isTerminal }

    public func writeReplayFields(into out: inout SummaryFieldsWriter) -> Bool {
        state.writeSummaryFields(into: &out)
        return true
    }

    public func writeReplayChanges(from before: DomainReplayFold, into out: inout SummaryChangesWriter) -> Bool {
        state.writeSummaryFields(changedFrom: before.state, into: &out)
    }
}
