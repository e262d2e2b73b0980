extension SQLiteEventStore {
    /// The tree's storage exists: the file is of schema version 3 (an older one opened read-only
    /// is read as it is).
    func requireTree() throws(EventStoreError) {
        guard fileSchemaVersion >= 3 else {
            throw EventStoreError(
                code: .needsUpgrade,
                message: "\(path) has journal schema version \(fileSchemaVersion), without the Merkle tree: "
                    + "open it once with a command that writes (e.g. 'journal import /dev/null --db \(path)'), "
                    + "which upgrades it to version \(Self.schemaVersion) and builds the tree")
        }
    }

    public func treeSize() throws(EventStoreError) -> Int64 {
        try requireTree()
        return try headPosition()
    }

    public func treeTile(level: Int, index: Int64) throws(EventStoreError) -> [UInt8] {
        try requireTree()
        return try reading { connection throws(EventStoreError) in
            try connection.treeTileOrLeaves(level: level, index: index)
        }
    }

    @discardableResult
    public func storeCheckpoint(note: String, size: Int64, root: [UInt8]) throws(EventStoreError) -> StoredCheckpoint {
        try requireTree()
        if commits.isHeldByCurrentThread {
            throw EventStoreError(
                code: .invalidInput, message: "a checkpoint cannot be kept inside a write transaction of the same store"
            )
        }
        let checkpoint = StoredCheckpoint(size: size, root: root, note: note, signedAt: configuration.clock())
        try withWriter { writer throws(EventStoreError) in try writer.keepCheckpoint(checkpoint) }
        return checkpoint
    }

    public func checkpoints() throws(EventStoreError) -> [StoredCheckpoint] {
        try requireTree()
        return try reading { connection throws(EventStoreError) in
            // Grouped by size: a journal signed every minute keeps many checkpoints.
            let cosignatures = Dictionary(grouping: try connection.cosignatures(size: nil), by: \.size)
            return try connection.checkpoints().map { $0.attaching(cosignatures[$0.size] ?? []) }
        }
    }

    public func latestCheckpoint() throws(EventStoreError) -> StoredCheckpoint? {
        try requireTree()
        return try reading { connection throws(EventStoreError) in
            guard let latest = try connection.latestCheckpoint() else { return nil }
            return latest.attaching(try connection.cosignatures(size: latest.size))
        }
    }
}
