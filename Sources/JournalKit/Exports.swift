// The modules whose types the front door's API takes and returns (`Timestamp`, `JSONObject`,
// `DomainEvent`, `RecordedEvent`, `EvidenceBundle`, …): an embedder imports `JournalKit` alone.
@_exported import Domain
@_exported import EventStore
@_exported import JournalCore
