import Domain
import EventStore

/// The identifier of the domain's rules (spec §12): `r<revision>-<16 hex digits>`, the hex
/// digits the start of the SHA-256 of ``DomainRules/description()``. It changes whenever a rule
/// or the catalog changes (the description is computed from them), and with the hand-bumped
/// revision. `journal --version` prints it; replay records keep the one they were made with.
public enum RulesIdentifier {
    /// The current rules' identifier, from the revision and the description digest written down
    /// in ``DomainRules`` (the tests check that digest against the rules).
    public static let current: String = identifier(
        revision: DomainRules.revision, digest: DomainRules.descriptionDigest)

    /// The SHA-256 of the current rules' description, computed (a noticeable part of a second):
    /// what the tests compare with ``DomainRules/descriptionDigest``.
    public static func computedDescriptionDigest() -> String { digest(of: DomainRules.description()) }

    /// The identifier of a revision and a description digest.
    public static func identifier(revision: Int, digest: String) -> String {
        "r\(revision)-" + digest.prefix(16)
    }

    /// The SHA-256 of `description` as 64 hex digits.
    public static func digest(of description: String) -> String {
        // SHA-256 of a few hundred kilobytes in memory cannot fail short of a broken libcrypto.
        guard let hash = try? EventHashing.sha256(Array(description.utf8)) else {
            preconditionFailure("SHA-256 is unavailable")
        }
        return EventHashing.hex(hash)
    }
}
