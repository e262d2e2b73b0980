// The evidence formats live in their own library (`Sources/Evidence`), which links neither
// SQLite, libpq nor LZ4. `import EventStore` re-exports it: the store's API returns and takes
// its types (`SignedCheckpoint`, `EvidenceBundle`, `TlogProof`…), so a user of the store has them
// without a second import (docs/decisions/library-layout.md).
@_exported import Evidence
