import Domain
import JournalCore
import Testing

/// The rules description behind the rules identifier (spec §12) is computed from the rules:
/// change one and it changes, whether the change refuses an event or evolves the state otherwise.
@Suite("Rules description")
struct RulesDescriptionTests {
    static func domain(_ state: JourneyState, _ type: String, _ data: JSONObject, _ at: Timestamp)
        -> Result<JourneyState, DomainRejection>
    {
        state.applying(type: type, data: data, occurredAt: at)
    }

    @Test("the same rules give the same description, byte for byte")
    func descriptionIsDeterministic() {
        #expect(DomainRules.description() == DomainRules.description())
        #expect(DomainRules.description(applying: Self.domain) == DomainRules.description())
        #expect(DomainRules.description().hasPrefix("journal rules revision \(DomainRules.revision)\n"))
    }

    @Test("a bound of a field rule moved changes the description")
    func fieldRuleChangeChangesTheDescription() {
        let stricter = DomainRules.description(applying: { state, type, data, at in
            if type == "ChallengeStarted", let seconds = data["timeoutSeconds"]?.numberValue?.int64, seconds < 301 {
                return .failure(.ruleBroken(Rejection(.catalog, "timeoutSeconds must be >= 301")))
            }
            return Self.domain(state, type, data, at)
        })
        #expect(stricter != DomainRules.description())
    }

    @Test("a transition that leads elsewhere changes the description")
    func transitionChangeChangesTheDescription() {
        // TransactionClosed allowed only after AuthResponseReceived, not right after creation.
        let changed = DomainRules.description(applying: { state, type, data, at in
            if type == "TransactionClosed", case .threeDS(.created) = state {
                return .failure(.ruleBroken(Rejection(.threeDSClose, "too early")))
            }
            return Self.domain(state, type, data, at)
        })
        #expect(changed != DomainRules.description())
    }

    @Test("a rule deep in the card journey is reached by the exploration")
    func deepCardRuleIsExplored() {
        // An OTP rejected with attempts left returns to otpNeeded; make it end the selection.
        let changed = DomainRules.description(applying: { state, type, data, at in
            if type == "OTPRejected", data["attemptsRemaining"]?.numberValue?.int64 == 2 {
                return .failure(.ruleBroken(Rejection(.cardOTPVerdict, "changed")))
            }
            return Self.domain(state, type, data, at)
        })
        #expect(changed != DomainRules.description())
    }
}
