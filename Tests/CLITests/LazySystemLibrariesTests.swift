import Foundation
import Testing

@testable import journal

/// libpq and libmicrohttpd are opened on first use, not linked
/// (docs/decisions/lazy-system-libraries.md): a command on a SQLite journal never maps them.
@Suite("lazy system libraries")
struct LazySystemLibrariesTests {
    @Test("the journal executable does not link libpq or libmicrohttpd")
    func theExecutableDoesNotLinkTheLazyLibraries() throws {
        let needed = try ELFDependencies.needed(JournalRunner.executable.path)
        // The reader works: the C library and SQLite are linked as before.
        #expect(needed.contains("libc.so.6"))
        #expect(needed.contains { $0.hasPrefix("libsqlite3.so") })
        for library in ["libpq", "libmicrohttpd", "libkrb5", "libldap", "libgnutls"] {
            #expect(!needed.contains { $0.hasPrefix(library + ".so") }, "\(library) is linked: \(needed)")
        }
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
}
