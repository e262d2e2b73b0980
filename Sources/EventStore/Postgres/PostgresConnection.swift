import CLibPQ

/// One libpq connection: the only place in the package that calls libpq (through `LibPQ`, the
/// library opened on first use).
///
/// Statements run with binary parameters and binary results, prepared once per connection and
/// cached by SQL text. `pipeline(_:)` sends many statements in libpq's pipeline mode and waits
/// for all their results in one round trip. Server messages are reduced to their primary text
/// and scrubbed of the connection's password; the connection string shows only redacted.
///
/// Not thread-safe and not `Sendable`: its owner serializes every use (the event store does).
///
/// Related documentation: <https://www.postgresql.org/docs/15/libpq.html>
package final class PostgresConnection {
    /// The connection string with its credentials redacted (`PostgresURL.redacted`).
    package let location: String
    private let conninfo: String
    private let password: String?
    private let pq: LibPQ
    private var handle: OpaquePointer
    private var prepared: [String: String] = [:]

    /// Connects with a libpq connection string: a `postgres://` URL or `key=value` pairs.
    ///
    /// - Throws: `PostgresError` with operation `connect`; its message never holds the password.
    ///   When libpq itself cannot be loaded, the message names the library and the package to
    ///   install (`LibPQ`).
    package init(_ conninfo: String) throws(PostgresError) {
        pq = try LibPQ.shared()
        self.conninfo = conninfo
        location = PostgresURL.redacted(conninfo)
        password = PostgresURL.password(in: conninfo)
        guard let handle = pq.connectdb(conninfo) else {
            throw PostgresError(sqlState: nil, operation: "connect", message: "libpq could not allocate a connection")
        }
        self.handle = handle
        guard pq.status(handle) == CONNECTION_OK else {
            let message = Self.scrub(
                pq.errorMessage(handle).map { String(cString: $0) } ?? "", password: password, conninfo: conninfo)
            // Every stored property is set, so `deinit` runs and calls PQfinish.
            throw PostgresError(
                sqlState: Self.connectionState(message), operation: "connect",
                message: "cannot connect to \(location): \(message)")
        }
        _ = try? execute("SET client_min_messages = warning")
    }

    deinit { pq.finish(handle) }

    // MARK: - Statements

    /// Runs one or more statements without parameters (DDL, `BEGIN`, `LISTEN`) through the simple
    /// query protocol; results are discarded.
    package func execute(_ sql: String) throws(PostgresError) {
        try reconnectIfBroken()
        guard let result = pq.exec(handle, sql) else { throw clientError("execute") }
        defer { pq.clear(result) }
        try check(result, "execute")
    }

    /// Runs one statement with binary parameters and returns its rows (binary format).
    package func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresResult {
        try reconnectIfBroken()
        let name = try statementName(sql, parameters)
        let result: OpaquePointer? = withEncoded(parameters) { count, values, lengths, formats in
            pq.execPrepared(handle, name, count, values, lengths, formats, 1)
        }
        guard let result else { throw clientError("execute") }
        let wrapped = PostgresResult(handle: result, pq: pq)
        try check(result, "execute")
        return wrapped
    }

    /// Sends every statement in pipeline mode, then one sync, and collects the results: one round
    /// trip for the whole list. When a statement fails, the server skips the rest up to the
    /// sync; the first failure is thrown after the pipeline has been drained, so the connection is
    /// usable again (inside a transaction block, the transaction is then aborted and must be
    /// rolled back).
    ///
    /// Related documentation: <https://www.postgresql.org/docs/15/libpq-pipeline-mode.html>
    package func pipeline(_ statements: [PostgresStatement]) throws(PostgresError) -> [PostgresResult] {
        guard !statements.isEmpty else { return [] }
        try reconnectIfBroken()
        var names: [String] = []
        names.reserveCapacity(statements.count)
        for statement in statements where statement.prepared {
            names.append(try statementName(statement.sql, statement.parameters))
        }
        guard pq.enterPipelineMode(handle) == 1 else { throw clientError("pipeline") }
        var results: [PostgresResult] = []
        results.reserveCapacity(statements.count)
        var failure: PostgresError?
        var sent = 0
        var nameIndex = 0
        for statement in statements {
            let name = statement.prepared ? names[nameIndex] : ""
            if statement.prepared { nameIndex += 1 }
            let ok: Int32 = withEncoded(statement.parameters) { count, values, lengths, formats in
                if statement.prepared {
                    return pq.sendQueryPrepared(handle, name, count, values, lengths, formats, 1)
                }
                let types = statement.parameters.map { $0.oid }
                return pq.sendQueryParams(handle, statement.sql, count, types, values, lengths, formats, 1)
            }
            guard ok == 1 else {
                failure = clientError("pipeline")
                break
            }
            sent += 1
        }
        if pq.pipelineSync(handle) != 1, failure == nil { failure = clientError("pipeline") }
        // Drain: each statement yields its result then a NULL; the sync yields PIPELINE_SYNC.
        var drained = 0
        while drained < sent {
            guard let result = pq.getResult(handle) else {
                if pq.status(handle) != CONNECTION_OK {
                    failure = failure ?? clientError("pipeline")
                    break
                }
                continue
            }
            let status = pq.resultStatus(result)
            if status == PGRES_PIPELINE_ABORTED {
                pq.clear(result)
            } else {
                let wrapped = PostgresResult(handle: result, pq: pq)
                do {
                    try check(result, "pipeline")
                    results.append(wrapped)
                } catch {
                    if failure == nil { failure = error }
                }
            }
            drained += 1
            // The NULL that ends this statement's results.
            while let extra = pq.getResult(handle) {
                pq.clear(extra)
            }
        }
        while pq.status(handle) == CONNECTION_OK, let result = pq.getResult(handle) {
            let status = pq.resultStatus(result)
            pq.clear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        _ = pq.exitPipelineMode(handle)
        if let failure { throw failure }
        return results
    }

    // MARK: - Transactions and state

    /// The server-side transaction state: idle, in a block, or in a failed block.
    package enum TransactionState: Sendable {
        case idle, active, inTransaction, failed, unknown
    }

    package var transactionState: TransactionState {
        switch pq.transactionStatus(handle) {
        case PQTRANS_IDLE: return .idle
        case PQTRANS_ACTIVE: return .active
        case PQTRANS_INTRANS: return .inTransaction
        case PQTRANS_INERROR: return .failed
        default: return .unknown
        }
    }

    /// Rolls back an open transaction; never throws (the caller is already reporting an error,
    /// and a broken connection rolls back on the server by itself).
    package func rollback() {
        guard transactionState == .inTransaction || transactionState == .failed else { return }
        if let result = pq.exec(handle, "ROLLBACK") { pq.clear(result) }
    }

    package var isConnected: Bool { pq.status(handle) == CONNECTION_OK }

    /// The server's version number, e.g. 150018 for 15.18.
    package var serverVersion: Int { Int(pq.serverVersion(handle)) }

    /// After a lost connection, reconnects (prepared statements are gone with the old session).
    private func reconnectIfBroken() throws(PostgresError) {
        guard pq.status(handle) != CONNECTION_OK else { return }
        pq.reset(handle)
        prepared.removeAll()
        guard pq.status(handle) == CONNECTION_OK else {
            throw PostgresError(
                sqlState: "08006", operation: "connect",
                message: "lost the connection to \(location) and could not reconnect: \(errorMessage)")
        }
        _ = try? execute("SET client_min_messages = warning")
    }

    // MARK: - Notifications

    /// The socket to wait on (`poll`) for notifications; -1 when not connected.
    var socket: Int32 { pq.socket(handle) }

    /// Reads what the server sent and returns the pending notifications (channel, payload).
    func notifications() throws(PostgresError) -> [(channel: String, payload: String)] {
        guard pq.consumeInput(handle) == 1 else { throw clientError("listen") }
        var received: [(String, String)] = []
        while let notify = pq.notifies(handle) {
            received.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
            pq.freemem(notify)
        }
        return received
    }

    // MARK: - Internals

    private func statementName(_ sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "journal_\(prepared.count + 1)"
        let types = parameters.map { $0.oid }
        guard let result = pq.prepare(handle, name, sql, Int32(types.count), types) else {
            throw clientError("prepare")
        }
        defer { pq.clear(result) }
        try check(result, "prepare")
        prepared[sql] = name
        return name
    }

    private func withEncoded<R>(
        _ parameters: [PostgresValue],
        _ body: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32]) -> R
    ) -> R {
        let encoded = parameters.map(\.encoded)
        var lengths: [Int32] = []
        var formats: [Int32] = []
        lengths.reserveCapacity(encoded.count)
        formats.reserveCapacity(encoded.count)
        // Every value's bytes are copied into one buffer that outlives the call.
        let total = encoded.reduce(0) { $0 + ($1?.count ?? 0) }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 1)
        defer { storage.deallocate() }
        var pointers: [UnsafePointer<CChar>?] = []
        pointers.reserveCapacity(encoded.count)
        var offset = 0
        for value in encoded {
            formats.append(1)
            guard let value else {
                pointers.append(nil)
                lengths.append(0)
                continue
            }
            let start = storage.baseAddress! + offset
            value.withUnsafeBytes { bytes in
                if !bytes.isEmpty { start.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
            }
            pointers.append(UnsafePointer(start.assumingMemoryBound(to: CChar.self)))
            lengths.append(Int32(value.count))
            offset += value.count
        }
        return body(Int32(encoded.count), pointers, lengths, formats)
    }

    private func check(_ result: OpaquePointer, _ operation: String) throws(PostgresError) {
        switch pq.resultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE, PGRES_PIPELINE_SYNC:
            return
        default:
            let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let primary =
                pq.resultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? errorMessage
            throw PostgresError(
                sqlState: state, operation: operation,
                message: Self.scrub(primary, password: password, conninfo: conninfo))
        }
    }

    private var errorMessage: String {
        Self.scrub(pq.errorMessage(handle).map { String(cString: $0) } ?? "", password: password, conninfo: conninfo)
    }

    private func clientError(_ operation: String) -> PostgresError {
        PostgresError(
            sqlState: pq.status(handle) == CONNECTION_OK ? nil : "08006", operation: operation,
            message: errorMessage)
    }

    /// libpq reports a refused connection as text only; the two causes a user must tell apart
    /// get their SQLSTATE back: a missing database (3D000) and failed authentication (28P01).
    static func connectionState(_ message: String) -> String {
        if message.contains("database \""), message.contains("\" does not exist") { return "3D000" }
        if message.contains("authentication failed") { return "28P01" }
        return "08001"
    }

    /// Trims a message and removes the password and the raw connection string from it.
    static func scrub(_ message: String, password: String?, conninfo: String) -> String {
        var text = message
        while let last = text.last, last == "\n" || last == " " { text.removeLast() }
        text = text.split(separator: "\n").map { $0.drop(while: { $0 == "\t" || $0 == " " }) }.joined(separator: "; ")
        if conninfo.count > 0 { text = text.replacing(conninfo, with: PostgresURL.redacted(conninfo)) }
        if let password, !password.isEmpty { text = text.replacing(password, with: "***") }
        return text
    }
}

@available(*, unavailable, message: "a connection must be used from one thread at a time")
extension PostgresConnection: Sendable {}
