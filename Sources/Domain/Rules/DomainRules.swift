import JournalCore

/// What identifies the domain's rules: a revision number bumped by hand, and a canonical
/// description of the catalog and of what the aggregates do (``description``). The rules
/// identifier of `journal --version` and of replay records (spec §12) is made from both
/// (the hash lives where SHA-256 does: `Projections/Replay/RulesIdentifier`).
///
/// The description is computed, not written: the catalog's type names and categories, and a
/// transcript of the aggregates' transitions found by exploring them from their initial states
/// with a fixed set of probe events (``RulesProbe``), each outcome written down (the state after,
/// as its summary, or the rule broken and its reason). A change of a rule that any probe sequence
/// reaches changes the transcript, and so the identifier, without anyone remembering to. The
/// revision is for what the exploration cannot see (a rule only reached deeper than it goes):
/// bump it with every rule change, and record the new description digest beside it in the
/// domain's tests (see `docs/decisions/rules-identifier.md`).
public enum DomainRules {
    /// The rules revision, bumped by hand with every change of a rule or of the catalog.
    public static let revision = 1

    /// The SHA-256 (hex) of ``description()`` at this revision, written down rather than computed
    /// at run time: the exploration takes a noticeable part of a second, and `journal --version`
    /// prints the identifier. `RulesIdentifierTests` recomputes it and fails when the rules or the
    /// catalog changed and this line (with ``revision``) did not.
    public static let descriptionDigest = "2d8a55726cddbdd9194ca0f1c2447c898f5beaab3924950941c99fac15debcaf"

    /// The canonical description, as UTF-8 text: the revision, the catalog, then the
    /// transition transcript, one line each. Deterministic: the same rules give the same bytes.
    public static func description() -> String {
        description(applying: { $0.applying(type: $1, data: $2, occurredAt: $3) })
    }

    /// The description of rules that apply events with `applying` instead of the domain's
    /// (the tests' variants: a changed rule must change the description).
    package static func description(applying: RulesProbe.Apply) -> String {
        var lines: [String] = ["journal rules revision \(revision)"]
        for type in EventType.allCases { lines.append("type \(type.category.rawValue) \(type.name)") }
        lines += RulesProbe.transcript(applying: applying)
        return lines.joined(separator: "\n") + "\n"
    }
}
