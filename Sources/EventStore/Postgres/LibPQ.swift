import CLibPQ
import JournalCore

/// libpq's functions, resolved at run time: the `journal` executable does not link libpq, so
/// commands on a SQLite journal never map it and the ~20 libraries it pulls in (Kerberos, LDAP,
/// GnuTLS, …) (docs/decisions/lazy-system-libraries.md). The first PostgreSQL connection of the
/// process opens `libpq.so.5`; every later one reuses the same table.
///
/// Each property has the C function's name and its exact pointer type (`cpq_*_fn` in
/// `CLibPQ/shim.h`, taken with `__typeof__` from libpq-fe.h), so a call reads as the C call does.
package struct LibPQ: Sendable {
    /// The library's file name as the dynamic loader looks it up (Debian package `libpq5`).
    package static let libraryName = "libpq.so.5"

    package let PQconnectdb: cpq_PQconnectdb_fn
    package let PQfinish: cpq_PQfinish_fn
    package let PQreset: cpq_PQreset_fn
    package let PQstatus: cpq_PQstatus_fn
    package let PQtransactionStatus: cpq_PQtransactionStatus_fn
    package let PQserverVersion: cpq_PQserverVersion_fn
    package let PQerrorMessage: cpq_PQerrorMessage_fn
    package let PQsocket: cpq_PQsocket_fn
    package let PQexec: cpq_PQexec_fn
    package let PQprepare: cpq_PQprepare_fn
    package let PQexecPrepared: cpq_PQexecPrepared_fn
    package let PQsendQueryParams: cpq_PQsendQueryParams_fn
    package let PQsendQueryPrepared: cpq_PQsendQueryPrepared_fn
    package let PQgetResult: cpq_PQgetResult_fn
    package let PQenterPipelineMode: cpq_PQenterPipelineMode_fn
    package let PQexitPipelineMode: cpq_PQexitPipelineMode_fn
    package let PQpipelineSync: cpq_PQpipelineSync_fn
    package let PQconsumeInput: cpq_PQconsumeInput_fn
    package let PQnotifies: cpq_PQnotifies_fn
    package let PQfreemem: cpq_PQfreemem_fn
    package let PQresultStatus: cpq_PQresultStatus_fn
    package let PQresultErrorField: cpq_PQresultErrorField_fn
    package let PQclear: cpq_PQclear_fn
    package let PQntuples: cpq_PQntuples_fn
    package let PQnfields: cpq_PQnfields_fn
    package let PQcmdTuples: cpq_PQcmdTuples_fn
    package let PQftype: cpq_PQftype_fn
    package let PQgetisnull: cpq_PQgetisnull_fn
    package let PQgetlength: cpq_PQgetlength_fn
    package let PQgetvalue: cpq_PQgetvalue_fn

    /// The process's libpq, opened on the first call; a failure is kept and thrown to every
    /// caller (a `static let` is initialized once, thread-safely).
    package static func shared() throws(PostgresError) -> LibPQ { try loaded.get() }

    private static let loaded = Result { () throws(PostgresError) -> LibPQ in try LibPQ(libraryName: libraryName) }

    /// Opens `libraryName` and resolves every function; tests pass a name that does not exist.
    ///
    /// - Throws: `PostgresError` with operation `connect`, naming the library, the loader's
    ///   reason and the package to install.
    package init(libraryName: String) throws(PostgresError) {
        do {
            let library = try DynamicLibrary(opening: libraryName)
            // unsafe: `unsafeBitCast` turns the address dlsym found for a name into the pointer
            // type that libpq-fe.h declares for that same name (`__typeof__(&PQxxx)`), so the
            // call signature is the header's own. This is the only cast of it in the package.
            func resolve<Function>(_ name: String) throws(DynamicLibrary.LoadError) -> Function {
                unsafeBitCast(try library.address(of: name), to: Function.self)
            }
            PQconnectdb = try resolve("PQconnectdb")
            PQfinish = try resolve("PQfinish")
            PQreset = try resolve("PQreset")
            PQstatus = try resolve("PQstatus")
            PQtransactionStatus = try resolve("PQtransactionStatus")
            PQserverVersion = try resolve("PQserverVersion")
            PQerrorMessage = try resolve("PQerrorMessage")
            PQsocket = try resolve("PQsocket")
            PQexec = try resolve("PQexec")
            PQprepare = try resolve("PQprepare")
            PQexecPrepared = try resolve("PQexecPrepared")
            PQsendQueryParams = try resolve("PQsendQueryParams")
            PQsendQueryPrepared = try resolve("PQsendQueryPrepared")
            PQgetResult = try resolve("PQgetResult")
            PQenterPipelineMode = try resolve("PQenterPipelineMode")
            PQexitPipelineMode = try resolve("PQexitPipelineMode")
            PQpipelineSync = try resolve("PQpipelineSync")
            PQconsumeInput = try resolve("PQconsumeInput")
            PQnotifies = try resolve("PQnotifies")
            PQfreemem = try resolve("PQfreemem")
            PQresultStatus = try resolve("PQresultStatus")
            PQresultErrorField = try resolve("PQresultErrorField")
            PQclear = try resolve("PQclear")
            PQntuples = try resolve("PQntuples")
            PQnfields = try resolve("PQnfields")
            PQcmdTuples = try resolve("PQcmdTuples")
            PQftype = try resolve("PQftype")
            PQgetisnull = try resolve("PQgetisnull")
            PQgetlength = try resolve("PQgetlength")
            PQgetvalue = try resolve("PQgetvalue")
        } catch {
            throw PostgresError(sqlState: nil, operation: "connect", message: Self.message(error))
        }
    }

    /// What a user reads: the loader's text names only the library and the symbol, never the URL.
    static func message(_ error: DynamicLibrary.LoadError) -> String {
        if let symbol = error.symbol {
            return "PostgreSQL needs libpq (\(error.library)), which has no \(symbol): \(error.reason); "
                + "install libpq5 version 14 or later (pipeline mode)"
        }
        return "PostgreSQL needs libpq (\(error.library)), which could not be loaded: \(error.reason); "
            + "install libpq5"
    }
}
