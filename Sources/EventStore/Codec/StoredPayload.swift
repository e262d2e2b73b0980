/// The stored payload format both backends share (columns codec, data_len, meta_len, payload):
/// data ‖ meta, raw (codec 0) or LZ4-compressed against dictionary `codec`.
enum StoredPayload {
    /// Payloads shorter than this are stored raw.
    static let minimumCompressedInput = 16

    /// The rule both backends and a load's preparer follow: with a dictionary, a payload of at
    /// least `minimumCompressedInput` bytes is stored compressed when that saves at least one byte.
    /// Returns the compressed size (the bytes are at the start of `scratch`), or nil: store raw.
    static func compress(_ raw: UnsafeRawBufferPointer, with dictionary: LZ4Dictionary?, scratch: inout [UInt8]) -> Int?
    {
        guard let dictionary, raw.count >= minimumCompressedInput else { return nil }
        let bound = LZ4Dictionary.bound(raw.count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: max(bound, 4096)) }
        let size = scratch.withUnsafeMutableBytes { output in dictionary.compress(raw, into: output) }
        guard let size, size < raw.count else { return nil }
        return size
    }

    /// Data and meta of one stored event, as arrays. `bytes` lends the payload column's bytes to
    /// its body; `dictionary` loads a compression dictionary by id. Damage is `.integrity` at
    /// `position`.
    static func decode(
        codec: Int64, dataLength: Int, metaLength: Int?, position: Int64, scratch: inout [UInt8],
        dictionary: (Int64) throws(EventStoreError) -> LZ4Dictionary,
        bytes withBytes: ((UnsafeRawBufferPointer) -> Void) -> Void
    )
        throws(EventStoreError) -> ([UInt8], [UInt8]?)
    {
        try withDecoded(
            codec: codec, dataLength: dataLength, metaLength: metaLength, position: position,
            scratch: &scratch, dictionary: dictionary, bytes: withBytes
        ) { data, meta in
            (Array(data), meta.map { Array($0) })
        }
    }

    /// The same, lent to `body` instead of copied: a raw payload straight from the stored bytes,
    /// a compressed one decoded into `scratch`. Valid only inside `body` (the scans use it).
    static func withDecoded<R>(
        codec: Int64, dataLength: Int, metaLength: Int?, position: Int64, scratch: inout [UInt8],
        dictionary: (Int64) throws(EventStoreError) -> LZ4Dictionary,
        bytes withBytes: ((UnsafeRawBufferPointer) -> Void) -> Void,
        _ body: (_ data: UnsafeRawBufferPointer, _ meta: UnsafeRawBufferPointer?) -> R
    )
        throws(EventStoreError) -> R
    {
        // Each length is bounded before they are added: damaged values must not overflow.
        guard (0...(1 << 30)).contains(dataLength), (0...(1 << 30)).contains(metaLength ?? 0),
            dataLength + (metaLength ?? 0) <= 1 << 30
        else {
            throw .integrity(at: position, "the stored payload lengths are damaged")
        }
        let total = dataLength + (metaLength ?? 0)
        func split(_ bytes: UnsafeRawBufferPointer) -> R {
            body(
                UnsafeRawBufferPointer(rebasing: bytes[..<dataLength]),
                metaLength.map { _ in UnsafeRawBufferPointer(rebasing: bytes[dataLength..<total]) })
        }
        if codec == 0 {
            // `split` calls `body` while `withBytes` lends the bytes: both run before this returns.
            let result: R? = withoutActuallyEscaping(split) { split in
                var result: R?
                withBytes { bytes in
                    guard bytes.count == total else { return }
                    result = split(bytes)
                }
                return result
            }
            guard let result else { throw .integrity(at: position, "the stored payload has the wrong length") }
            return result
        }
        let found: LZ4Dictionary
        do {
            found = try dictionary(codec)
        } catch {
            throw .integrity(at: position, "the payload refers to compression dictionary #\(codec), which is missing")
        }
        if scratch.count < total { scratch = [UInt8](repeating: 0, count: max(total, 4096)) }
        var ok = false
        withBytes { bytes in
            ok = scratch.withUnsafeMutableBytes { out in
                found.decompress(bytes, into: UnsafeMutableRawBufferPointer(rebasing: out[..<total]))
            }
        }
        guard ok else { throw .integrity(at: position, "the compressed payload does not decode") }
        return scratch.withUnsafeBytes { out in split(out) }
    }
}
