import JournalCore

/// Rebuilds a journal from its own export (or a mirror's entries), keeping every event's
/// position, `recordedAt` and hash as they were (spec §10): the new journal is the signed
/// log again, byte for byte, where `journal import` would make a new log.
///
/// ```swift
/// var input = try ExportFileInput(path: "backup.ndjson")
/// let target = try SQLiteEventStore.openForRestore(path: "restored.db", configuration: .init())
/// let report = try JournalRestore.run(&input, checkpoint: signed.checkpoint, into: target)
/// ```
///
/// Each line must be an export line (`ExportLine`: exactly as `journal export` writes its
/// event), at the next position (1, 2, 3 … without a gap), at its stream's next version, with
/// the chain's hash; the tree over the lines read must have the checkpoint's root when it
/// reaches the checkpoint's size. The first line that fails stops the restore: nothing is kept.
/// The events go into the new journal the way `journal import` writes a new journal: a SQLite
/// file through the journal load (`SQLiteJournalLoad`: nothing at the path until it is
/// complete), a PostgreSQL journal in one transaction. Memory: a line at a time, plus each
/// stream's last version (as the load keeps).
package enum JournalRestore {
    /// What a restore did.
    package struct Report: Sendable, Equatable {
        package var events: Int64 = 0
        package var streams = 0
        /// Hex SHA-256 of the last event (empty for an empty journal).
        package var headHash = ""
        /// The root of the restored tree.
        package var root: [UInt8] = Merkle.emptyRoot
    }

    /// Restores `input` into `target` (a new journal: a load, or an empty store).
    /// - Throws: `.integrity` naming the first line that does not check, or a checkpoint the
    ///   input does not reach or whose root it does not have; `.failure` for a journal that
    ///   could not be written. Nothing is kept in either case.
    package static func run(
        _ input: inout some RestoreInput, checkpoint: Checkpoint?, into target: ImportTarget
    ) throws(RestoreError) -> Report {
        var check = RestoreCheck(checkpoint: checkpoint, itemName: input.itemName)
        switch target {
        case let .load(load):
            do throws(RestoreError) {
                while let (number, line) = try input.next() {
                    let event = try check.check(line, number: number)
                    let position: Int64
                    do {
                        position = try load.append(
                            proposed(event), to: event.stream, expectedVersion: expectedVersion(event))
                    } catch {
                        throw refused(error, input.itemName, number)
                    }
                    guard position == event.position else {
                        throw RestoreError(
                            .integrity, "\(input.itemName) \(number): the journal put the event at position \(position)"
                        )
                    }
                }
                try check.finish()
                do {
                    try load.finish()
                } catch {
                    throw finishing(error)
                }
            } catch {
                load.abandon()
                throw error
            }
        case let .store(store):
            do {
                try store.write { transaction in
                    while let (number, line) = try input.next() {
                        let event = try check.check(line, number: number)
                        let result: AppendResult
                        do throws(EventStoreError) {
                            result = try transaction.append(
                                [proposed(event)], to: event.stream, expectedVersion: expectedVersion(event))
                        } catch {
                            throw refused(error, input.itemName, number)
                        }
                        guard result.written == 1, result.positions == [event.position] else {
                            throw RestoreError(
                                .integrity,
                                "\(input.itemName) \(number): the journal put the event at position "
                                    + "\(result.positions.first ?? 0)")
                        }
                    }
                    try check.finish()
                }
            } catch let error as RestoreError {
                throw error
            } catch {
                throw finishing(error)
            }
        }
        return check.report
    }

    private static func proposed(_ event: RecordedEvent) -> ProposedEvent {
        ProposedEvent(
            id: event.id, type: event.type, occurredAt: event.occurredAt, data: event.data, meta: event.meta,
            recordedAt: event.recordedAt)
    }

    private static func expectedVersion(_ event: RecordedEvent) -> ExpectedVersion {
        event.version == 0 ? .noStream : .exact(event.version - 1)
    }

    /// An event the journal's rules refused (an id that is not a UUID, a payload too large…).
    private static func refused(_ error: EventStoreError, _ itemName: String, _ number: Int64) -> RestoreError {
        switch error.code {
        case .invalidInput, .tooLarge, .conflict, .duplicateIDConflict:
            return RestoreError(.integrity, "\(itemName) \(number): the journal refuses the event: \(error.message)")
        default:
            return RestoreError(.failure, "\(itemName) \(number): \(error.message)")
        }
    }

    private static func finishing(_ error: any Error) -> RestoreError {
        guard let error = error as? EventStoreError else { return RestoreError(.failure, "\(error)") }
        if error.code == .duplicateIDConflict { return RestoreError(.integrity, error.message) }
        return RestoreError(.failure, error.message)
    }
}

/// The checks of each line of a restore, in order (`JournalRestore`).
struct RestoreCheck {
    let checkpoint: Checkpoint?
    let itemName: String
    private var previous = EventHashing.zeroHash
    private var versions: [StreamName: Int64] = [:]
    private var tree = IncrementalMerkleRoot()

    init(checkpoint: Checkpoint?, itemName: String) {
        self.checkpoint = checkpoint
        self.itemName = itemName
    }

    var report: JournalRestore.Report {
        JournalRestore.Report(
            events: tree.size, streams: versions.count, headHash: tree.size == 0 ? "" : Hex.string(previous),
            root: tree.root)
    }

    /// The event of `line`, after checking it is the next one of the log.
    mutating func check(_ line: [UInt8], number: Int64) throws(RestoreError) -> RecordedEvent {
        let label = "\(itemName) \(number)"
        let event: RecordedEvent
        do {
            event = try ExportLine.parse(line)
        } catch {
            throw RestoreError(.integrity, "\(label): not an export line: \(error.reason)")
        }
        let position = tree.size + 1
        guard event.position == position else {
            throw RestoreError(
                .integrity,
                "\(label): position \(event.position) where \(position) comes next (positions are 1…N without a gap)")
        }
        let version = versions[event.stream].map { $0 + 1 } ?? 0
        guard event.version == version else {
            throw RestoreError(
                .integrity,
                "\(label): \(event.stream) version \(event.version) where \(version) comes next")
        }
        let hash: [UInt8]
        do {
            hash = try EventHashing.linkHash(previous: previous, event: event)
        } catch {
            throw RestoreError(.failure, "\(label): \(error.message)")
        }
        guard hash == event.hash else {
            throw RestoreError(
                .integrity,
                "\(label): the hash of position \(position) is not the chain's (the chain gives "
                    + "\(Hex.string(hash).prefix(16))…): the line or one before it was changed")
        }
        tree.append(leafLine: line)
        if let checkpoint, checkpoint.size == tree.size {
            try checkRoot(checkpoint, label: label)
        }
        versions[event.stream] = version
        previous = hash
        return event
    }

    /// After the last line: the input reached the checkpoint's size.
    func finish() throws(RestoreError) {
        guard let checkpoint else { return }
        if checkpoint.size == 0 { try checkRoot(checkpoint, label: "the input") }
        guard tree.size >= checkpoint.size else {
            throw RestoreError(
                .integrity,
                "the input ends after \(tree.size) events, but the checkpoint signs a tree of \(checkpoint.size)")
        }
    }

    private func checkRoot(_ checkpoint: Checkpoint, label: String) throws(RestoreError) {
        let root = tree.root
        guard root == checkpoint.root else {
            throw RestoreError(
                .integrity,
                "\(label): the tree of the first \(checkpoint.size) events has the root \(Base64.encode(root)), "
                    + "not the checkpoint's \(Base64.encode(checkpoint.root))")
        }
    }
}
