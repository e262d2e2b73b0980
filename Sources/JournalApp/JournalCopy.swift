import EventStore
import JournalCore

/// A whole journal copied into another (SQLite file ⇄ PostgreSQL URL, or file to file), event
/// for event, verified before and after: `journal copy` (docs/cli.md). A copy into a journal
/// that holds a prefix of the source resumes after it.
package enum JournalCopy {
    /// What a copy did.
    package struct Outcome {
        /// The destination's head position before the copy (0: it was empty).
        package var start: Int64
        /// The events appended.
        package var copied: Int64
        /// The destination's verification after the copy (the source's, too).
        package var report: VerifyReport
        /// The Merkle tree head both journals have.
        package var tree: TreeHead
    }

    package static func copy(
        from: JournalBackend, to: JournalBackend, pageSize: Int, context: CommandContext,
        progress makeProgress: (_ total: Int64) -> (any ProgressReporting)?
    ) throws -> Outcome {
        try JournalAccess.checkLocation(from, writing: false)
        try JournalAccess.checkLocation(to, writing: true)
        let source: any TransactionalEventStore
        switch JournalAccess.open(from, reading: true, context) {
        case let .success(store): source = store
        case let .failure(error) where error.code == .missing:
            throw CLIError(.failure, "no journal at \(from.display)", hint: "--from names the journal to copy")
        case let .failure(error): throw error
        }
        let sourceReport = try verified(source, from)
        let destination = try JournalAccess.open(to, reading: false, context).get()

        // Resume after the destination's head when it is a prefix of the source.
        let start = try destination.headPosition()
        if start > 0 {
            let destinationLast = try destination.readAll(from: start, limit: 1).first
            let sourceAtStart = try source.readAll(from: start, limit: 1).first
            guard let destinationLast, let sourceAtStart, destinationLast.hash == sourceAtStart.hash else {
                throw CLIError(
                    .failure, "\(to.display) already holds \(start) events that are not the start of \(from.display)",
                    hint: "copy into a new or empty journal")
            }
        }
        var next = start + 1
        var copied: Int64 = 0
        let progress = makeProgress(max(0, sourceReport.headPosition - start))
        while true {
            let page = try source.readAll(from: next, limit: pageSize)
            guard let last = page.last else { break }
            try destination.append(parts(of: page))
            copied += Int64(page.count)
            next = last.position + 1
            progress?.update(done: copied, events: copied)
        }
        progress?.finish(done: copied, events: copied)
        let destinationReport = try verified(destination, to)
        guard destinationReport == sourceReport else {
            throw CLIError(
                .integrity,
                "the copy at \(to.display) does not match \(from.display): "
                    + "\(destinationReport.events) events, head hash \(destinationReport.headHash.prefix(16)) "
                    + "vs \(sourceReport.events) events, head hash \(sourceReport.headHash.prefix(16))")
        }
        // The same leaf lines make the same Merkle tree: checkpoints signed on the source hold on
        // the copy (spec §6). A source opened read-only before its upgrade has no tree to compare.
        let tree = try destination.treeHead()
        if let sourceTree = try sourceTreeHead(source), sourceTree != tree {
            throw CLIError(
                .integrity,
                "the copy at \(to.display) has Merkle tree root \(Base64.encode(tree.root)) "
                    + "at size \(tree.size) where \(from.display) has \(Base64.encode(sourceTree.root)) "
                    + "at size \(sourceTree.size)",
                hint: "'journal verify --db …' on both; one of the trees was changed")
        }
        return Outcome(start: start, copied: copied, report: destinationReport, tree: tree)
    }

    /// Consecutive events of one stream become one part, with the expected version the source
    /// had before them, so a destination that diverged fails with a conflict instead of mixing.
    package static func parts(of page: [RecordedEvent]) -> [StreamAppend] {
        var parts: [StreamAppend] = []
        for event in page {
            let proposed = ProposedEvent(
                id: event.id, type: event.type, occurredAt: event.occurredAt, data: event.data,
                meta: event.meta, recordedAt: event.recordedAt)
            if let index = parts.indices.last, parts[index].stream == event.stream {
                parts[index].events.append(proposed)
            } else {
                parts.append(
                    StreamAppend(
                        stream: event.stream,
                        expectedVersion: event.version == 0 ? .noStream : .exact(event.version - 1),
                        events: [proposed]))
            }
        }
        return parts
    }

    /// The source's tree head, or nil when the source is of an older version opened read-only
    /// (the destination built its tree from the same events).
    private static func sourceTreeHead(_ source: any EventStore) throws -> TreeHead? {
        do {
            return try source.treeHead()
        } catch let error where error.code == .needsUpgrade {
            return nil
        }
    }

    private static func verified(_ store: any EventStore, _ backend: JournalBackend) throws -> VerifyReport {
        switch verify(store) {
        case let .success(report):
            return report
        case let .failure(error) where error.code == .integrity:
            throw CLIError(
                .integrity, "\(backend.display): \(error.message)",
                hint: "'journal verify --db …' names the first bad position")
        case let .failure(error):
            throw error
        }
    }

    private static func verify(_ store: any EventStore) -> Result<VerifyReport, EventStoreError> {
        do {
            return .success(try store.verify())
        } catch {
            return .failure(error)
        }
    }
}
