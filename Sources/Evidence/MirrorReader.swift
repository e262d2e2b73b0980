/// Reads the files of a mirror: a folder in the layout of C2SP tlog-tiles (`checkpoint`,
/// `tile/<L>/<N>[.p/<W>]`, `tile/entries/<N>[.p/<W>]`), as `journal publish` writes it and a web
/// server serves it. Every read checks the file's shape (a tile's width, a bundle's entries);
/// what the hashes mean is checked by `MirrorVerifier` and `MirrorEntries`.
public struct MirrorReader: Sendable {
    public let directory: String

    /// The longest checkpoint read: a signed note with many cosignatures is a few kilobytes.
    static let maxCheckpointBytes = 1 << 20
    /// The longest entry bundle: 256 entries of at most 65,535 bytes, each with its length.
    static let maxBundleBytes = TlogTiles.width * (TlogTiles.maxEntryBytes + 2)

    public init(directory: String) {
        self.directory = directory
    }

    /// The signed checkpoint, checked with `verifiers` (the log's key must have signed it).
    /// - Throws: `.integrity` when it is not a checkpoint or not signed by the key; `.io`.
    public func checkpoint(verifiers: [NoteVerifier]) throws(MirrorError) -> SignedCheckpoint {
        let signed = try checkpoint()
        do {
            try signed.verify(with: verifiers)
        } catch {
            throw MirrorError(.integrity, "\(directory)/checkpoint is not signed by the given key: \(error)")
        }
        return signed
    }

    /// The checkpoint as it is, its signatures unchecked; nil when the folder has none.
    public func checkpointIfAny() throws(MirrorError) -> SignedCheckpoint? {
        guard MirrorFile.exists(directory + "/checkpoint") else { return nil }
        return try checkpoint()
    }

    private func checkpoint() throws(MirrorError) -> SignedCheckpoint {
        let bytes = try file("checkpoint", maxBytes: Self.maxCheckpointBytes)
        do {
            return try SignedCheckpoint(parsing: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw MirrorError(.integrity, "\(directory)/checkpoint is not a signed checkpoint: \(error)")
        }
    }

    /// Whether the folder holds entry bundles (`tile/entries`).
    public var hasEntries: Bool { MirrorFile.isFolder(directory + "/tile/entries") }

    /// The hashes of tile (level, index) of `width` hashes, concatenated.
    /// - Throws: `.integrity` for a missing file or one of another length; `.io`.
    public func tile(level: Int, index: Int64, width: Int) throws(MirrorError) -> [UInt8] {
        let path = TlogTiles.path(level: level, index: index, width: width)
        let bytes = try file(path, maxBytes: TlogTiles.fullTileBytes)
        guard bytes.count == width * Merkle.hashSize else {
            throw MirrorError(
                .integrity,
                "\(directory)/\(path) holds \(bytes.count) bytes, not the \(width * Merkle.hashSize) "
                    + "of \(width) hashes")
        }
        return bytes
    }

    /// The entries of bundle `index` of `width` entries.
    /// - Throws: `.integrity` for a missing file, bytes that are not length-prefixed entries, or
    ///   another number of entries; `.io`.
    public func bundle(index: Int64, width: Int) throws(MirrorError) -> [ArraySlice<UInt8>] {
        let path = TlogTiles.entriesPath(index: index, width: width)
        let bytes = try file(path, maxBytes: Self.maxBundleBytes)
        guard let entries = TlogTiles.entries(ofBundle: bytes) else {
            throw MirrorError(.integrity, "\(directory)/\(path) is not an entry bundle (an entry's length overruns it)")
        }
        guard entries.count == width else {
            throw MirrorError(.integrity, "\(directory)/\(path) holds \(entries.count) entries, not \(width)")
        }
        return entries
    }

    /// The bytes of the file at `relative` in the folder.
    func file(_ relative: String, maxBytes: Int) throws(MirrorError) -> [UInt8] {
        do {
            return try MirrorFile.read(directory + "/" + relative, maxBytes: maxBytes)
        } catch let failure where failure.isMissing {
            throw MirrorError(.integrity, "\(directory)/\(relative) is missing")
        } catch {
            throw MirrorError(.io, "cannot read the mirror: \(error)")
        }
    }
}
