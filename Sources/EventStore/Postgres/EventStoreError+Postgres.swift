extension EventStoreError {
    /// Maps a PostgreSQL failure to a store error, keeping the SQLSTATE as `backendCode`. The
    /// message names what the store was doing and the server's primary message, never bound
    /// values or credentials.
    package init(postgres error: PostgresError, doing what: String, stream: String? = nil) {
        let code: Code
        let reason: String
        let state = error.sqlState ?? ""
        switch error.sqlStateClass ?? "" {
        case "23":
            code = .integrity
            reason = "the schema refused the change (\(error.message))"
        case "53":
            code = state == "53100" ? .full : .io
            reason = state == "53100" ? "the server's disk is full" : error.message
        case "54":
            code = .tooLarge
            reason = error.message
        case "25" where state == "25006":
            code = .readOnly
            reason = "the journal is read-only"
        case _ where state.hasPrefix("40") || state == "55P03" || state == "57014":
            code = .busy
            reason = "the journal's append lock is held by another writer (lock timeout exceeded)"
        case "3D":
            code = .missing
            reason = error.message
        default:
            code = .io
            reason = error.message
        }
        self.init(code: code, message: "\(what): \(reason)", stream: stream, backendCode: error.sqlState)
    }
}
