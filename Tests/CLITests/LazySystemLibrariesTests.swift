import Foundation
import Testing

@testable import JournalApp
@testable import JournalHTTP

/// libpq and libmicrohttpd are opened on first use, not linked
/// (docs/decisions/lazy-system-libraries.md): a command on a SQLite journal never maps them.
@Suite("lazy system libraries")
struct LazySystemLibrariesTests {
    @Test("the journal executable does not link libpq or libmicrohttpd")
    func theExecutableDoesNotLinkTheLazyLibraries() throws {
        let needed = try ELFDependencies.needed(JournalRunner.executable.path)
        // The reader works: the C library is linked as before.
        #expect(needed.contains("libc.so.6"))
        for library in ["libpq", "libmicrohttpd", "libkrb5", "libldap", "libgnutls"] {
            #expect(!needed.contains { $0.hasPrefix(library + ".so") }, "\(library) is linked: \(needed)")
        }
    }

    @Test("SQLite and libcrypto are inside the executable, not shared libraries it loads")
    func sqliteAndLibcryptoAreLinkedStatically() throws {
        // docs/decisions/static-sqlite-and-libcrypto.md
        let needed = try ELFDependencies.needed(JournalRunner.executable.path)
        #expect(!needed.isEmpty)
        for library in ["libsqlite3", "libcrypto", "libssl", "liblz4"] {
            #expect(!needed.contains { $0.hasPrefix(library + ".so") }, "\(library) is a shared library: \(needed)")
        }
        // The copies inside still answer: --version asks each library for its own version.
        let run = try JournalRunner().run(["--version"], db: false)
        #expect(run.status == 0)
        #expect(run.stdout.contains("SQLite          3."))
        #expect(run.stdout.contains("OpenSSL         OpenSSL 3."))
    }

    @Test("a libmicrohttpd that cannot be loaded is an exit-1 error naming the library and the package")
    func aMissingMicroHTTPDIsAClearError() throws {
        let error = try #require(throws: CLIError.self) {
            try LibMicroHTTPD(libraryName: "libmicrohttpd-absent-for-this-test.so.12")
        }
        #expect(error.status == .failure)
        #expect(
            error.messages.first?.hasPrefix(
                "journal serve needs libmicrohttpd (libmicrohttpd-absent-for-this-test.so.12), "
                    + "which could not be loaded: ") == true)
        #expect(error.hints == ["install the Debian package libmicrohttpd12"])
    }

    @Test("a library that lacks one of libmicrohttpd's functions is an error naming that function")
    func aLibraryWithoutTheFunctionsNamesTheMissingOne() throws {
        let error = try #require(throws: CLIError.self) { try LibMicroHTTPD(libraryName: "libc.so.6") }
        #expect(
            error.messages.first?.hasPrefix(
                "journal serve needs libmicrohttpd (libc.so.6), which has no MHD_start_daemon: ") == true)
    }

    @Test(
        "without libpq a SQLite command runs and a PostgreSQL URL exits 1 with the install hint, no password",
        .enabled(if: HiddenLibrary.available, "needs root and unshare(1) for a private mount namespace"))
    func withoutLibPQOnlyPostgreSQLFails() throws {
        let hidden = try #require(HiddenLibrary(soname: "libpq.so.5"))
        let version = try hidden.run(["--version"])
        #expect(version.status == 0)
        let url = "postgres://journal:pg-secret-42@127.0.0.1:1/payments"
        let verify = try hidden.run(["verify", "--db", url])
        #expect(verify.status == 1)
        #expect(
            verify.stderr.contains(
                "error: connecting: PostgreSQL needs libpq (libpq.so.5), which could not be loaded: "))
        #expect(verify.stderr.contains("; install libpq5"))
        #expect(!verify.stderr.contains("pg-secret-42"))
    }

    @Test(
        "without libmicrohttpd journal serve exits 1 with the install hint",
        .enabled(if: HiddenLibrary.available, "needs root and unshare(1) for a private mount namespace"))
    func withoutMicroHTTPDServeFails() throws {
        let hidden = try #require(HiddenLibrary(soname: "libmicrohttpd.so.12"))
        let runner = try JournalRunner()
        let serve = try hidden.run(["serve", "--listen", "127.0.0.1:0", "--db", runner.database])
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("error: journal serve needs libmicrohttpd (libmicrohttpd.so.12)"))
        #expect(serve.stderr.contains("hint: install the Debian package libmicrohttpd12"))
        #expect(!runner.exists("journal.db"))
    }
}

/// Runs `journal` in a private mount namespace where one installed library's file is replaced
/// by an empty one (a bind mount of /dev/null), as on a machine without that library.
struct HiddenLibrary {
    let file: String

    static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = try? JournalRunner.runCommand(["/usr/bin/unshare", "-m", "--propagation", "private", "true"])
        guard let probe else { return false }
        return probe.status == 0
    }()

    /// The installed file behind `soname`, or nil when it is not in a multiarch library folder.
    init?(soname: String) {
        let folders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu"]
        guard let folder = folders.first(where: { FileManager.default.fileExists(atPath: $0 + "/" + soname) })
        else { return nil }
        file = URL(fileURLWithPath: folder + "/" + soname).resolvingSymlinksInPath().path
    }

    func run(_ arguments: [String]) throws -> JournalRunner.Result {
        let script = #"library="$1"; shift; mount --bind /dev/null "$library" && exec "$@""#
        return try JournalRunner.runCommand(
            [
                "/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", file,
                JournalRunner.executable.path
            ] + arguments)
    }
}
