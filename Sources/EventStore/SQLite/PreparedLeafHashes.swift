/// The leaf hashes (spec §6) of a prepared load batch's events whose chain hash the
/// preparer computed ahead, made on a thread of their own while the writer writes the batch's
/// rows: the leaf line is rendered and hashed from what the batch already holds (the link body,
/// the assumed position and version, the chain hash), so the writer only copies each one where
/// it belongs before the tree takes them (`SQLiteJournal.appendPrepared`).
///
/// On two cores, a simulation's generating thread and its writer are about equally busy and
/// together leave a third of the machine idle; the leaf hashes (a leaf line of about 450 bytes
/// rendered and hashed per event) fit there instead of on either of them.
struct PreparedLeafHashes: Sendable {
    /// 32 bytes per event of the batch, in order; zeros for an event without a chain hash ahead.
    let hashes: [UInt8]

    /// Computes them, with a hasher of their own.
    static func compute(_ batch: PreparedLoadBatch) -> PreparedLeafHashes {
        let hasher = ChainHasher()
        var hashes = [UInt8](repeating: 0, count: 32 * batch.events.count)
        batch.bytes.withUnsafeBytes { bytes in
            hashes.withUnsafeMutableBytes { out in
                for (index, event) in batch.events.enumerated() where event.hashOffset >= 0 {
                    hasher.leafHash(
                        body: UnsafeRawBufferPointer(rebasing: bytes[event.body]), position: event.assumedPosition,
                        version: event.assumedVersion,
                        hash: UnsafeRawBufferPointer(rebasing: bytes[event.hashOffset..<(event.hashOffset + 32)]),
                        into: UnsafeMutableRawBufferPointer(rebasing: out[(32 * index)..<(32 * index + 32)]))
                }
            }
        }
        return PreparedLeafHashes(hashes: hashes)
    }
}
