#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A shared library opened at run time with `dlopen` (`RTLD_NOW | RTLD_LOCAL`): its symbols are
/// resolved at once and stay private to whoever asks for them with `address(of:)`. Never closed:
/// the functions handed out must stay valid for the whole process.
///
/// Used for the libraries only some commands need (libpq, libmicrohttpd), so that the others do
/// not map them at start (docs/decisions/lazy-system-libraries.md).
package struct DynamicLibrary {

    /// Why a library or one of its symbols could not be had, with the loader's own text.
    package struct LoadError: Error, Sendable, CustomStringConvertible {
        /// The library's file name as given to `dlopen`.
        package var library: String
        /// The missing symbol, or nil when the library itself could not be opened.
        package var symbol: String?
        /// `dlerror()`'s text (which names the file and, for a symbol, the symbol).
        package var reason: String

        package var description: String {
            if let symbol { return "\(library) has no \(symbol): \(reason)" }
            return "\(library) could not be loaded: \(reason)"
        }
    }

    /// The file name given to `dlopen`, e.g. `libpq.so.5`.
    package let name: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `name` the way the dynamic loader finds a `DT_NEEDED` library (LD_LIBRARY_PATH, the
    /// loader cache, the default folders).
    package init(opening name: String) throws(LoadError) {
        _ = dlerror() // clear a stale message
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadError(library: name, symbol: nil, reason: Self.lastError())
        }
        self.name = name
        self.handle = handle
    }

    /// The address of a function (or variable) the library exports.
    package func address(of symbol: String) throws(LoadError) -> UnsafeMutableRawPointer {
        _ = dlerror()
        guard let address = dlsym(handle, symbol) else {
            throw LoadError(library: name, symbol: symbol, reason: Self.lastError())
        }
        return address
    }

    /// The function the library exports as `symbol`, as the pointer type `Function`, which must
    /// be the type the library's header declares for that name: the shim headers make each one
    /// with `__typeof__(&name)` (`CLibPQ/shim.h`, `CMicroHTTPD/shim.h`).
    package func function<Function>(_ symbol: String, as type: Function.Type = Function.self)
        throws(LoadError) -> Function
    {
        // unsafe: `unsafeBitCast` turns the address dlsym found for a name into the pointer type
        // the header declares for that same name, so the call signature is the header's own.
        // It traps, rather than misreads, if `Function` is not pointer-sized. The only such cast
        // in the package.
        unsafeBitCast(try address(of: symbol), to: Function.self)
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown dynamic loader error"
    }
}
