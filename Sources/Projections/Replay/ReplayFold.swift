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
    /// True when nothing may follow (a terminal state): comparing, the run then lets go of the
    /// storage of the stream's queues once both sides have caught up.
    var replayEnded: Bool { get }
}

extension ReplayFold {
    public var replayEnded: Bool { false }
    public func writeReplayFields(into _: inout SummaryFieldsWriter) -> Bool { false }
}

/// The domain's rules: ``JourneyState``, its data read in place when flat (``JSONFlatObject``),
/// else parsed, as every replay does, with the reasons every replay gives (a type outside the
/// catalog gets the nearest catalog type suggested). The command line folds through it.
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
            var reason = error.reason
            if case let .invalidData(decoding) = error, decoding.kind == .unknownType,
                DomainEvent.category(ofType: type) == nil
            {
                reason += NameSuggestion.hint(for: type, among: Self.catalogTypeNames)
            }
            throw ReplayRuleError(reason: reason)
        } catch let error as ReplayRuleError {
            throw error
        } catch {
            throw ReplayRuleError(reason: "\(error)")
        }
    }

    /// Every event type of the domain's catalog, both categories.
    private static let catalogTypeNames = EventType.names

    public var replaySummary: JSONObject { state.summary() }
    public var replayEnded: Bool { state.isTerminal }

    public func writeReplayFields(into out: inout SummaryFieldsWriter) -> Bool {
        state.writeSummaryFields(into: &out)
        return true
    }
}
