import EventStore
import JournalCore

extension Backend {
    /// A fresh schema on the test process's private PostgreSQL server.
    static let postgres = Backend(name: "PostgreSQL") { options in
        let store = try PostgresEventStore(url: try PostgresTestServer.freshURL(), configuration: options.postgres)
        return Harness(store: store, tamper: PostgresTampering(store: store))
    }

    /// PostgreSQL joins the suite unless this local run skips it (see `PostgresTestServer`).
    static let postgresIfAvailable: [Backend] = PostgresTestServer.skipped ? [] : [.postgres]
}

extension StoreOptions {
    var postgres: PostgresEventStore.Configuration {
        var configuration = PostgresEventStore.Configuration(
            clock: clock, maxPayloadBytes: maxPayloadBytes,
            dictionaryTrainingEvents: dictionaryTrainingEvents)
        if let isSameContent { configuration.isSameContent = isSameContent }
        return configuration
    }
}
