import EventStore
import JournalApp
import JournalCore
import Projections

/// `journal --version`: what a bug report needs to name the build and the libraries it runs on.
enum VersionCommand {
    /// The journal's release version (semantic versioning); `contract`: the interface version of docs/spec.md.
    static let version = "1.3.0"
    static let contract = "1.3"

    static func run(_ context: CommandContext) {
        context.stdout.line("journal \(version) (contract v\(contract))")
        context.stdout.line("rules           \(RulesIdentifier.current)")
        context.stdout.line(
            "journal format  SQLite \(LinkedLibraries.sqliteJournalFormat), "
                + "PostgreSQL \(LinkedLibraries.postgresJournalFormat)")
        context.stdout.line("SQLite          \(LinkedLibraries.sqlite)")
        context.stdout.line("OpenSSL         \(LinkedLibraries.openSSL)")
        context.stdout.line("LZ4             \(LinkedLibraries.lz4)")
    }
}
