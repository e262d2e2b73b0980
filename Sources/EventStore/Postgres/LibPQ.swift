import CLibPQ
import JournalCore

/// libpq's functions, resolved at run time: the `journal` executable does not link libpq, so
/// commands on a SQLite journal never map it and the ~20 libraries it pulls in (Kerberos, LDAP,
/// GnuTLS, …) (docs/decisions/lazy-system-libraries.md). The first PostgreSQL connection of the
/// process opens `libpq.so.5`; every later one reuses the same table.
///
/// Each property is a C function without its `PQ` prefix (`exec` is `PQexec`), with its exact
/// pointer type (`cpq_*_fn` in `CLibPQ/shim.h`, taken with `__typeof__` from libpq-fe.h):
/// `pq.exec(handle, sql)` is the C call `PQexec(handle, sql)`.
package struct LibPQ: Sendable {
    /// The library's file name as the dynamic loader looks it up (Debian package `libpq5`).
    package static let libraryName = "libpq.so.5"

    package let connectdb: cpq_PQconnectdb_fn
    package let finish: cpq_PQfinish_fn
    package let reset: cpq_PQreset_fn
    package let status: cpq_PQstatus_fn
    package let transactionStatus: cpq_PQtransactionStatus_fn
    package let serverVersion: cpq_PQserverVersion_fn
    package let errorMessage: cpq_PQerrorMessage_fn
    package let socket: cpq_PQsocket_fn
    package let exec: cpq_PQexec_fn
    package let prepare: cpq_PQprepare_fn
    package let execPrepared: cpq_PQexecPrepared_fn
    package let sendQueryParams: cpq_PQsendQueryParams_fn
    package let sendQueryPrepared: cpq_PQsendQueryPrepared_fn
    package let getResult: cpq_PQgetResult_fn
    package let enterPipelineMode: cpq_PQenterPipelineMode_fn
    package let exitPipelineMode: cpq_PQexitPipelineMode_fn
    package let pipelineSync: cpq_PQpipelineSync_fn
    package let consumeInput: cpq_PQconsumeInput_fn
    package let notifies: cpq_PQnotifies_fn
    package let freemem: cpq_PQfreemem_fn
    package let resultStatus: cpq_PQresultStatus_fn
    package let resultErrorField: cpq_PQresultErrorField_fn
    package let clear: cpq_PQclear_fn
    package let ntuples: cpq_PQntuples_fn
    package let nfields: cpq_PQnfields_fn
    package let cmdTuples: cpq_PQcmdTuples_fn
    package let ftype: cpq_PQftype_fn
    package let getisnull: cpq_PQgetisnull_fn
    package let getlength: cpq_PQgetlength_fn
    package let getvalue: cpq_PQgetvalue_fn

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
            connectdb = try library.function("PQconnectdb")
            finish = try library.function("PQfinish")
            reset = try library.function("PQreset")
            status = try library.function("PQstatus")
            transactionStatus = try library.function("PQtransactionStatus")
            serverVersion = try library.function("PQserverVersion")
            errorMessage = try library.function("PQerrorMessage")
            socket = try library.function("PQsocket")
            exec = try library.function("PQexec")
            prepare = try library.function("PQprepare")
            execPrepared = try library.function("PQexecPrepared")
            sendQueryParams = try library.function("PQsendQueryParams")
            sendQueryPrepared = try library.function("PQsendQueryPrepared")
            getResult = try library.function("PQgetResult")
            enterPipelineMode = try library.function("PQenterPipelineMode")
            exitPipelineMode = try library.function("PQexitPipelineMode")
            pipelineSync = try library.function("PQpipelineSync")
            consumeInput = try library.function("PQconsumeInput")
            notifies = try library.function("PQnotifies")
            freemem = try library.function("PQfreemem")
            resultStatus = try library.function("PQresultStatus")
            resultErrorField = try library.function("PQresultErrorField")
            clear = try library.function("PQclear")
            ntuples = try library.function("PQntuples")
            nfields = try library.function("PQnfields")
            cmdTuples = try library.function("PQcmdTuples")
            ftype = try library.function("PQftype")
            getisnull = try library.function("PQgetisnull")
            getlength = try library.function("PQgetlength")
            getvalue = try library.function("PQgetvalue")
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
