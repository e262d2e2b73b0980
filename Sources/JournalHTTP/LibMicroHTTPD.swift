import CMicroHTTPD
import JournalApp
import JournalCore

/// libmicrohttpd's functions, resolved at run time: the `journal` executable does not link
/// libmicrohttpd, so only `journal serve` maps it and the GnuTLS stack it pulls in
/// (docs/decisions/lazy-system-libraries.md). Opened once per process, when serve starts.
///
/// Each property is a C function without its `MHD_` prefix, in camel case (`queueResponse` is
/// `MHD_queue_response`), with its exact pointer type (`cmhd_*_fn` in `CMicroHTTPD/shim.h`, taken
/// with `__typeof__` from microhttpd.h). `MHD_start_daemon` is variadic (Swift sees its pointer as
/// an `OpaquePointer`): it is called through `cmhd_start_daemon`, which takes this pointer.
// Unchecked Sendable: immutable C function addresses; MHD_start_daemon's imports as an OpaquePointer.
package struct LibMicroHTTPD: @unchecked Sendable {

    /// The library's file name as the dynamic loader looks it up (Debian package `libmicrohttpd12`).
    static let libraryName = "libmicrohttpd.so.12"

    let startDaemon: cmhd_MHD_start_daemon_fn
    let quiesceDaemon: cmhd_MHD_quiesce_daemon_fn
    let stopDaemon: cmhd_MHD_stop_daemon_fn
    let suspendConnection: cmhd_MHD_suspend_connection_fn
    let resumeConnection: cmhd_MHD_resume_connection_fn
    let getConnectionValues: cmhd_MHD_get_connection_values_fn
    let createResponseFromBuffer: cmhd_MHD_create_response_from_buffer_fn
    let addResponseHeader: cmhd_MHD_add_response_header_fn
    let queueResponse: cmhd_MHD_queue_response_fn
    let destroyResponse: cmhd_MHD_destroy_response_fn

    /// The process's libmicrohttpd, opened on the first call; a failure is kept and thrown to
    /// every caller (a `static let` is initialized once, thread-safely).
    package static func shared() throws(CLIError) -> LibMicroHTTPD { try loaded.get() }

    private static let loaded = Result { () throws(CLIError) -> LibMicroHTTPD in
        try LibMicroHTTPD(libraryName: libraryName)
    }

    /// Opens `libraryName` and resolves every function; tests pass a name that does not exist.
    ///
    /// - Throws: `CLIError` (exit 1) naming the library, the loader's reason and the package to
    ///   install.
    init(libraryName: String) throws(CLIError) {
        do {
            let library = try DynamicLibrary(opening: libraryName)
            startDaemon = try library.function("MHD_start_daemon")
            quiesceDaemon = try library.function("MHD_quiesce_daemon")
            stopDaemon = try library.function("MHD_stop_daemon")
            suspendConnection = try library.function("MHD_suspend_connection")
            resumeConnection = try library.function("MHD_resume_connection")
            getConnectionValues = try library.function("MHD_get_connection_values")
            createResponseFromBuffer = try library.function("MHD_create_response_from_buffer")
            addResponseHeader = try library.function("MHD_add_response_header")
            queueResponse = try library.function("MHD_queue_response")
            destroyResponse = try library.function("MHD_destroy_response")
        } catch {
            let what = error.symbol.map { "which has no \($0)" } ?? "which could not be loaded"
            throw CLIError(
                .failure, "journal serve needs libmicrohttpd (\(error.library)), \(what): \(error.reason)",
                hint: "install the Debian package libmicrohttpd12")
        }
    }
}
