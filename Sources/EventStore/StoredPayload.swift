/// The stored payload format both backends share (columns codec, data_len, meta_len, payload):
/// data ‖ meta, raw (codec 0) or LZ4-compressed against dictionary `codec`.
enum StoredPayload {
    /// Data and meta of one stored event. `bytes` lends the payload column's bytes to its body;
    /// `dictionary` loads a compression dictionary by id. Damage is `.integrity` at `position`.
    static func decode(codec: Int64, dataLength: Int, metaLength: Int?, position: Int64, scratch: inout [UInt8],
                       dictionary: (Int64) throws(EventStoreError) -> LZ4Dictionary,
                       bytes withBytes: ((UnsafeRawBufferPointer) -> Void) -> Void)
        throws(EventStoreError) -> ([UInt8], [UInt8]?) {
        let total = dataLength + (metaLength ?? 0)
        guard dataLength >= 0, (metaLength ?? 0) >= 0, total <= 1 << 30 else {
            throw .integrity(at: position, "the stored payload lengths are damaged")
        }
        if codec == 0 {
            var decoded: ([UInt8], [UInt8]?)?
            withBytes { bytes in
                guard bytes.count == total else { return }
                let data = Array(UnsafeRawBufferPointer(rebasing: bytes[..<dataLength]))
                let meta = metaLength.map { _ in Array(UnsafeRawBufferPointer(rebasing: bytes[dataLength...])) }
                decoded = (data, meta)
            }
            guard let decoded else { throw .integrity(at: position, "the stored payload has the wrong length") }
            return decoded
        }
        let found: LZ4Dictionary
        do {
            found = try dictionary(codec)
        } catch {
            throw .integrity(at: position, "the payload refers to compression dictionary #\(codec), which is missing")
        }
        if scratch.count < total { scratch = [UInt8](repeating: 0, count: total) }
        var ok = false
        withBytes { bytes in
            ok = scratch.withUnsafeMutableBytes { out in
                found.decompress(bytes, into: UnsafeMutableRawBufferPointer(rebasing: out[..<total]))
            }
        }
        guard ok else { throw .integrity(at: position, "the compressed payload does not decode") }
        let data = Array(scratch[..<dataLength])
        let meta = metaLength.map { _ in Array(scratch[dataLength..<total]) }
        return (data, meta)
    }
}
