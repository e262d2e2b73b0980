import Foundation
import Testing

/// Spec §9 "Keys and checkpoints as files" through the built executable: `keygen` writes
/// FILE.pub and refuses before writing anything, `keygen --public`, `checkpoint --latest`.
@Suite("journal keygen and checkpoint --latest files (end to end)")
struct KeyFilesEndToEndTests {
    @Test("keygen writes the verifier key to FILE.pub (0644) and prints the same line")
    func keygenWritesThePublicKeyFile() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["keygen", "payments.example/journal", "--out", runner.path("k.key")], db: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try runner.read("k.key.pub") == result.stdout)
        #expect(try EdgesEndToEndTests.mode(runner.path("k.key.pub")) == 0o644)
        #expect(try EdgesEndToEndTests.mode(runner.path("k.key")) == 0o600)
        #expect(!runner.exists("journal.db"))
    }

    @Test("keygen refuses before writing anything when FILE or FILE.pub exists")
    func keygenRefusesAnExistingFile() throws {
        let runner = try JournalRunner()
        // FILE.pub exists (say, a verifier key kept from before): FILE is not created either.
        _ = try runner.write("k.key.pub", "kept\n")
        let refused = try runner.run(["keygen", "payments.example/journal", "--out", runner.path("k.key")], db: false)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("k.key.pub: it already exists"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect(!runner.exists("k.key"))
        #expect(try runner.read("k.key.pub") == "kept\n")

        // FILE exists: FILE.pub is not created, FILE is unchanged.
        _ = try runner.write("j.key", "kept\n")
        let again = try runner.run(["keygen", "payments.example/journal", "--out", runner.path("j.key")], db: false)
        #expect(again.status == 1)
        #expect(!runner.exists("j.key.pub"))
        #expect(try runner.read("j.key") == "kept\n")
    }

    @Test("keygen --public prints the verifier key of a private key file")
    func keygenPublicDerivesTheVerifierKey() throws {
        let runner = try JournalRunner()
        let made = try runner.run(["keygen", "payments.example/journal", "--out", runner.path("k.key")], db: false)
        #expect(made.status == 0)
        let derived = try runner.run(["keygen", "--public", runner.path("k.key")], db: false)
        #expect(derived.status == 0, "\(derived.stderr)")
        #expect(derived.stdout == made.stdout)
        #expect(!derived.stdout.contains("PRIVATE"))
        // NAME or --out beside --public is a usage error; a missing file fails.
        #expect(try runner.run(["keygen", "x.example/y", "--public", runner.path("k.key")], db: false).status == 2)
        #expect(try runner.run(["keygen", "--public", runner.path("missing.key")], db: false).status == 1)
        #expect(try runner.run(["keygen", "--out", runner.path("z.key")], db: false).status == 2)
    }

    @Test("checkpoint --latest prints the latest kept checkpoint exactly as signed, or writes it with --out")
    func checkpointLatestIsTheSignedNote() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let all = events.events(atLeast: 24)
        try runner.importLegal(Array(all.prefix(12)))
        let none = try runner.run(["checkpoint", "--latest"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no checkpoint"))
        #expect(none.stderr.contains("hint: sign one with 'journal checkpoint --key FILE'"))

        let key = runner.path("j.key")
        #expect(try runner.run(["keygen", "j.example/log", "--out", key], db: false).status == 0)
        let first = try runner.run(["checkpoint", "--key", key])
        try runner.importLegal(Array(all.dropFirst(12)), name: "more.ndjson")
        let second = try runner.run(["checkpoint", "--key", key])
        #expect(first.status == 0 && second.status == 0)

        let latest = try runner.run(["checkpoint", "--latest"])
        #expect(latest.status == 0, "\(latest.stderr)")
        #expect(latest.stdout == second.stdout)
        #expect(latest.stdout.hasSuffix("\n") && !latest.stdout.hasSuffix("\n\n"))
        #expect(latest.stdout != first.stdout)

        let written = try runner.run(["checkpoint", "--latest", "--out", runner.path("cp.txt")])
        #expect(written.status == 0 && written.stdout.isEmpty)
        #expect(try runner.read("cp.txt") == second.stdout)
        // The file is what verify --checkpoint takes.
        let verifier = try runner.read("j.key.pub").trimmingCharacters(in: .newlines)
        let held = try runner.run(["verify", "--checkpoint", runner.path("cp.txt"), "--key", verifier])
        #expect(held.status == 0, "\(held.stderr)")
        #expect(try runner.run(["checkpoint", "--out", runner.path("x.txt")]).status == 2)
    }
}
