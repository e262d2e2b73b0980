import EventStore
import JournalCore
import Testing

/// libpq is opened on first use, not linked (docs/decisions/lazy-system-libraries.md): a machine
/// without it runs every SQLite command, and a PostgreSQL URL there gets an error that says what
/// to install instead of a crash at start.
@Suite("PostgreSQL client library loading")
struct PostgresLibraryLoadingTests {
    @Test("a libpq that cannot be loaded is a connect error naming the library and the package to install")
    func aMissingLibraryIsAClearConnectError() throws {
        let error = try #require(throws: PostgresError.self) {
            try LibPQ(libraryName: "libpq-absent-for-this-test.so.5")
        }
        #expect(error.operation == "connect")
        #expect(error.sqlState == nil)
        #expect(
            error.message.hasPrefix(
                "PostgreSQL needs libpq (libpq-absent-for-this-test.so.5), which could not be loaded: "))
        #expect(error.message.contains("cannot open shared object file"))
        #expect(error.message.hasSuffix("; install libpq5"))
    }

    @Test("a missing libpq reaches the command as the store error of a journal that cannot be opened")
    func aMissingLibraryIsTheStoreErrorOfAnUnopenableJournal() throws {
        let error = try #require(throws: PostgresError.self) {
            try LibPQ(libraryName: "libpq-absent-for-this-test.so.5")
        }
        let store = EventStoreError(postgres: error, doing: "connecting")
        #expect(store.code == .io)
        #expect(store.backendCode == nil)
        #expect(store.message.hasPrefix("connecting: PostgreSQL needs libpq (libpq-absent-for-this-test.so.5)"))
    }

    @Test("a library that lacks one of libpq's functions is an error naming that function")
    func aLibraryWithoutTheFunctionsNamesTheMissingOne() throws {
        // The C library opens fine but exports no PQ* function.
        let error = try #require(throws: PostgresError.self) { try LibPQ(libraryName: "libc.so.6") }
        #expect(error.message.hasPrefix("PostgreSQL needs libpq (libc.so.6), which has no PQconnectdb: "))
        #expect(error.message.contains("install libpq5"))
    }

    @Test("the installed libpq loads once and resolves every function the store calls")
    func theInstalledLibraryResolvesEveryFunction() throws {
        _ = try LibPQ.shared()
        _ = try LibPQ.shared()
        #expect(LibPQ.libraryName == "libpq.so.5")
    }
}
