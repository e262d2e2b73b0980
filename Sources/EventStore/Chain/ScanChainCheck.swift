import JournalCore

/// The chain check of a scan (``EventScanning/scanAll(from:limit:_:)``) on either backend: events
/// come in position order, so each one's link is computed from the hash of the row before it,
/// and a missing position is caught too. The first event's previous hash is looked up once.
///
/// The links are recomputed on another thread while the scan goes on: `check` writes each
/// event's link into a batch (`LinkBatch`: a copy, as the scan lends its bytes only during the
/// call), and a full batch is hashed by a `BackgroundTask` while the next one fills; the two
/// batches' memory is reused from batch to batch. Every batch starts from the stored hash before
/// it, so batches are independent of each other. A scan must call `finish()` before it returns:
/// it checks what is left and reports the first failure.
/// The failure reported is always the first bad position: a batch's result is collected before
/// any later failure is thrown.
struct ScanChainCheck {
    /// Events per batch handed to the other thread.
    static let batchEvents = 4_096

    private var expectedPosition: Int64
    /// The batch being filled.
    private var batch: LinkBatch
    /// The batch the other thread hashes, with its task; or, once it has checked, a batch to
    /// fill next (its memory reused).
    private var inFlight: (batch: LinkBatch, task: BackgroundTask<EventStoreError?>)?
    private var spare: LinkBatch?
    /// A failure was thrown: what comes after it is not checked any more (the first is reported).
    private var failed = false
    /// Set for a scan that builds the tree (the schema upgrade): each batch that checks also
    /// gets its events' leaf hashes, on the thread that checked it (`takeLeafHashes`).
    var keepsLeafHashes = false
    /// The leaf hashes of the events checked so far and not yet taken, in order.
    private var leafHashes: [UInt8] = []

    /// `previousHash`: the stored hash at `position − 1` (ignored at position 1; nil when that row
    /// is missing, which the first event then reports). `limit`: the events the scan reads at most.
    /// What a failure says of an event whose link does not hash to its stored hash.
    private let mismatch: String

    init(
        from position: Int64, previousHash: [UInt8]?, limit: Int,
        mismatch: String = LinkBatch.defaultMismatch
    ) {
        expectedPosition = max(position, 1)
        self.mismatch = mismatch
        batch = LinkBatch(limit: Self.batchEvents, expected: limit)
        // A stored hash of the wrong length is taken as 32 zero bytes, which no link hashes to.
        let previous =
            position <= 1 ? ChainHasher.zeroHash : previousHash.map { $0.count == 32 ? $0 : ChainHasher.zeroHash }
        if let previous {
            previous.withUnsafeBytes { batch.start(previous: $0) }
        } else {
            batch.start(previous: nil)
        }
    }

    /// Adds one event to the check, from its fields as stored (`stream` and `type`: the names'
    /// UTF-8 bytes; `hash`: the stored hash). The bytes are copied: they need live only during
    /// the call.
    mutating func check(
        position: Int64, version: Int64, stream: UnsafeRawBufferPointer, id: LinkBatch.ID,
        type: UnsafeRawBufferPointer, occurredAt: Int64, recordedAt: Int64, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer?, hash: UnsafeRawBufferPointer
    ) throws(EventStoreError) {
        guard position == expectedPosition else {
            try finish() // an earlier bad link is the first failure
            failed = true
            throw .integrity(at: expectedPosition, "position \(expectedPosition) is missing from the log")
        }
        batch.add(
            position: position, version: version, stream: stream, id: id, type: type, occurredAt: occurredAt,
            recordedAt: recordedAt, data: data, meta: meta, hash: hash)
        expectedPosition = position + 1
        if batch.count >= Self.batchEvents { try handOff() }
    }

    /// ``check(position:version:stream:id:type:occurredAt:recordedAt:data:meta:hash:)`` from
    /// strings and a copied hash (the id as its text).
    mutating func check(
        position: Int64, version: Int64, stream: String, id: String, type: String, occurredAt: Int64,
        recordedAt: Int64, data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?, hash: [UInt8]
    ) throws(EventStoreError) {
        var failure: EventStoreError?
        UTF8Bytes.with(stream) { stream in
            UTF8Bytes.with(id) { id in
                UTF8Bytes.with(type) { type in
                    hash.withUnsafeBytes { hash in
                        do throws(EventStoreError) {
                            try check(
                                position: position, version: version, stream: UnsafeRawBufferPointer(stream),
                                id: .text(UnsafeRawBufferPointer(id)), type: UnsafeRawBufferPointer(type),
                                occurredAt: occurredAt, recordedAt: recordedAt, data: data, meta: meta, hash: hash)
                        } catch {
                            failure = error
                        }
                    }
                }
            }
        }
        if let failure { throw failure }
    }

    /// Checks every event added so far; throws the first that does not check. Does nothing once
    /// a failure was thrown.
    mutating func finish() throws(EventStoreError) {
        try collect()
        guard batch.count > 0, !failed else { return }
        var failure = batch.failure(mismatch: mismatch)
        if failure == nil && keepsLeafHashes {
            do throws(EventStoreError) {
                try batch.computeLeafHashes()
                leafHashes.append(contentsOf: batch.leafHashes)
            } catch {
                failure = error
            }
        }
        let next = spare ?? LinkBatch(limit: Self.batchEvents, expected: Self.batchEvents)
        next.start(after: batch)
        spare = batch
        batch = next
        if let failure {
            failed = true
            throw failure
        }
    }

    /// Waits for the batch on the other thread; throws its failure.
    private mutating func collect() throws(EventStoreError) {
        guard let (checked, task) = inFlight else { return }
        inFlight = nil
        let failure = task.wait()
        spare = checked
        if let failure, !failed {
            failed = true
            throw failure
        }
        if keepsLeafHashes { leafHashes.append(contentsOf: checked.leafHashes) }
    }

    /// Moves the leaf hashes of the events checked so far (those of whole batches; `finish()`
    /// checks the rest) to the end of `out`, in order. Only with `keepsLeafHashes`.
    mutating func takeLeafHashes(into out: inout [UInt8]) {
        out.append(contentsOf: leafHashes)
        leafHashes.removeAll(keepingCapacity: true)
    }

    /// Starts hashing the full batch on the other thread, once the one before it has checked.
    private mutating func handOff() throws(EventStoreError) {
        try collect()
        let full = batch
        batch = spare ?? LinkBatch(limit: Self.batchEvents, expected: Self.batchEvents)
        spare = nil
        batch.start(after: full)
        let keepsLeafHashes = keepsLeafHashes
        let mismatch = mismatch
        // Handed over until `collect()` has waited for the task; this thread only reads the
        // batch's last stored hash meanwhile (`start(after:)`, above).
        let handed = HandOver(full)
        inFlight = (
            full,
            BackgroundTask { () -> EventStoreError? in
                let full = handed.value
                if let failure = full.failure(mismatch: mismatch) { return failure }
                guard keepsLeafHashes else { return nil }
                do throws(EventStoreError) {
                    try full.computeLeafHashes()
                    return nil
                } catch {
                    return error
                }
            }
        )
    }
}
