extension PostgresEventStore {
    /// The tree's storage exists: the journal is of schema version 2 or later (an older one
    /// opened read-only is read as it is).
    func requireTree() throws(EventStoreError) {
        guard fileSchemaVersion != "1" else {
            throw EventStoreError(
                code: .needsUpgrade,
                message: "\(location) has journal schema version \(fileSchemaVersion), without the Merkle tree: "
                    + "open it once with a command that writes (e.g. 'journal import /dev/null'), which "
                    + "upgrades it to version \(Self.schemaVersion) and builds the tree")
        }
    }

    public func treeSize() throws(EventStoreError) -> Int64 {
        try requireTree()
        return try headPosition()
    }

    public func treeTile(level: Int, index: Int64) throws(EventStoreError) -> [UInt8] {
        try requireTree()
        return try reading { journal throws(EventStoreError) in try journal.treeTile(level: level, index: index) }
    }

    @discardableResult
    public func storeCheckpoint(note: String, size: Int64, root: [UInt8]) throws(EventStoreError) -> StoredCheckpoint {
        try requireTree()
        let checkpoint = StoredCheckpoint(size: size, root: root, note: note, signedAt: configuration.clock())
        // On the reader's session: the writer's may be inside a write transaction of this thread.
        try reading { journal throws(EventStoreError) in try journal.keepCheckpoint(checkpoint) }
        return checkpoint
    }

    public func checkpoints() throws(EventStoreError) -> [StoredCheckpoint] {
        try requireTree()
        return try reading { journal throws(EventStoreError) in
            // Grouped by size: a journal signed every minute keeps many checkpoints.
            let cosignatures = Dictionary(grouping: try journal.cosignatures(size: nil), by: \.size)
            return try journal.checkpoints().map { $0.attaching(cosignatures[$0.size] ?? []) }
        }
    }

    public func latestCheckpoint() throws(EventStoreError) -> StoredCheckpoint? {
        try requireTree()
        return try reading { journal throws(EventStoreError) in
            guard let latest = try journal.latestCheckpoint() else { return nil }
            return latest.attaching(try journal.cosignatures(size: latest.size))
        }
    }
}
