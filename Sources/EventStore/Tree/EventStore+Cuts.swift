// The cheap check every reader makes before it answers (spec §9, "every reader sees a
// cut"): that no events are gone from the end of the log, whatever its head row says. Each
// part reads a row or two by key, never the log; what it cannot see is in docs/eventstore.md
// ("What a reader checks").
extension EventStore {
    /// Checks that the log still ends where the journal's bookkeeping says it does: the head row
    /// is the last stored event (same position and hash), the Merkle tree has a leaf for every
    /// position up to the head and none after it, and the latest checkpoint the journal kept is
    /// no larger than the log and has the root of the tree at its size.
    /// - Throws: `.integrity` naming the first position that is gone (or stored beyond the
    ///   head); for a kept checkpoint whose root the log no longer has, the checkpoint's size.
    public func checkForCuts() throws(EventStoreError) {
        let end = try logEnd()
        let head = try Self.checkEnd(end)
        do {
            try checkTreeEdge(head: head)
            try checkLatestCheckpoint(head: head)
        } catch {
            // A journal of an older schema read as it is has no tree and no checkpoints.
            guard error.code == .needsUpgrade else { throw error }
        }
    }

    /// The head row against the last stored event; returns the head position.
    static func checkEnd(_ end: LogEnd) throws(EventStoreError) -> Int64 {
        guard let head = end.headPosition else {
            throw EventStoreError(
                code: .integrity,
                message: "integrity check failed at position 1: the journal's head row is missing",
                position: 1)
        }
        let last = end.lastPosition ?? 0
        if last < head {
            throw .integrity(
                at: last + 1,
                "events \(last + 1) … \(head) are gone: the journal's head is position \(head), but "
                    + (last == 0 ? "no event is stored" : "its last stored event is at position \(last)"))
        }
        if last > head {
            throw .integrity(
                at: head + 1,
                "events are stored after the journal's head (position \(head)) up to position \(last): "
                    + "the head was moved back")
        }
        if head > 0 && end.headHash != end.lastHash {
            throw .integrity(
                at: head, "the journal's head hash is not the stored hash of its last event (position \(head))")
        }
        return head
    }

    /// The tree's leaf tile at the head holds exactly the leaves up to the head, and no leaf tile
    /// follows it. Tiles and head move in one commit, so a tile read after the head may hold more
    /// only when a writer moved the head meanwhile: then the head is read again.
    private func checkTreeEdge(head: Int64) throws(EventStoreError) {
        let perTile = Int64(TreeTiles.width)
        let index = head == 0 ? 0 : (head - 1) / perTile
        let expected = head == 0 ? 0 : head - index * perTile
        let held = Int64(try treeTile(level: 0, index: index).count / 32)
        if held < expected {
            throw .integrity(
                at: index * perTile + held + 1,
                "the journal's Merkle tree has no leaf for the events from position \(index * perTile + held + 1) "
                    + "(head \(head)): the tree was cut back")
        }
        let following = try treeTile(level: 0, index: index + 1)
        guard held > expected || !following.isEmpty, try headPosition() == head else { return }
        throw .integrity(
            at: head + 1,
            "the journal's Merkle tree has leaves after its head (position \(head)): "
                + "events after position \(head) are gone")
    }

    /// The latest kept checkpoint is no larger than the log and has the root of the tree at its
    /// size. A checkpoint larger than `head` may have been kept since the head was read: then the
    /// head is read again.
    private func checkLatestCheckpoint(head: Int64) throws(EventStoreError) {
        guard let kept = try latestCheckpoint() else { return }
        if kept.size > head, try headPosition() < kept.size { throw .keptCheckpointBeyondLog(kept, head: head) }
        guard try treeRoot(size: kept.size) == kept.root else { throw .keptCheckpointRootDiffers(kept) }
    }

    /// `verify`'s part: every checkpoint the journal kept is no larger than the log and has the
    /// root of the tree at its size (the tree itself is held to the events first).
    public func checkKeptCheckpoints() throws(EventStoreError) {
        // The checkpoints first: each was kept at a size the head had reached, and heads grow.
        let kept: [StoredCheckpoint]
        let head: Int64
        do {
            kept = try checkpoints()
            head = try treeSize()
        } catch {
            guard error.code == .needsUpgrade else { throw error }
            return
        }
        for kept in kept {
            guard kept.size <= head else { throw .keptCheckpointBeyondLog(kept, head: head) }
            guard try treeRoot(size: kept.size) == kept.root else { throw .keptCheckpointRootDiffers(kept) }
        }
    }
}

extension EventStoreError {
    /// A checkpoint the journal kept covers events its log no longer has.
    fileprivate static func keptCheckpointBeyondLog(_ kept: StoredCheckpoint, head: Int64) -> EventStoreError {
        .integrity(
            at: head + 1,
            "the journal kept a checkpoint of \(kept.size) events, but its log ends at position \(head): "
                + "events \(head + 1) … \(kept.size) are gone")
    }

    /// The tree at a kept checkpoint's size no longer has the root that checkpoint signed.
    fileprivate static func keptCheckpointRootDiffers(_ kept: StoredCheckpoint) -> EventStoreError {
        EventStoreError(
            code: .integrity,
            message:
                "integrity check failed at or before position \(kept.size): the journal's tree of its first "
                + "\(kept.size) events no longer has the root of the checkpoint it kept at that size",
            position: kept.size)
    }
}
