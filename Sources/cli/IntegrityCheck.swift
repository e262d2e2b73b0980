import EventStore

/// Per-event hash checks for `audit`.
enum IntegrityCheck {
    /// True when the event's stored hash matches the chain link recomputed from its content and
    /// the previous event's hash.
    static func hashChecks(_ event: RecordedEvent, in store: any EventStore) throws -> Bool {
        // Placeholder until the store branch lands with its chain-link function.
        true
    }
}
