import CLZ4

/// LZ4 block compression against a shared dictionary (the only place that calls liblz4).
///
/// Small JSON events barely shrink on their own (ratio ≈ 0.96), because LZ4 has nothing to refer
/// back to; with a dictionary made of earlier events, field names and common values become
/// matches. The dictionary is preloaded once into an `LZ4_stream_t`; each compression resets a
/// working stream and attaches the preloaded one (`LZ4_attach_dictionary`, O(1)), instead of
/// copying its 16 KiB state, which cost more than compressing a 70-byte event. That function is
/// in the static liblz4 only, which `CLZ4` links. The two streams are made on the first
/// compression: a reader only decompresses, from the bytes alone, and a command that reads one
/// event (`journal prove`) should not zero and fill 32 KiB for nothing. Not thread-safe: one per
/// writer or reader.
final class LZ4Dictionary {
    let id: Int64
    /// The dictionary bytes; LZ4 refers to them in place, so they live in a stable allocation.
    private let bytes: UnsafeMutableRawBufferPointer
    /// The preloaded dictionary and the working stream of compression, made on first use.
    private var streams: (preloaded: UnsafeMutablePointer<LZ4_stream_t>, work: UnsafeMutablePointer<LZ4_stream_t>)?

    init(id: Int64, content: [UInt8]) {
        self.id = id
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(content.count, 1), alignment: 16)
        content.withUnsafeBytes { source in
            if !source.isEmpty { storage.copyMemory(from: source) }
        }
        bytes = storage
        count = content.count
    }

    /// The dictionary's size in bytes.
    let count: Int

    /// A copy of the dictionary bytes.
    var content: [UInt8] { Array(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }

    deinit {
        if let streams {
            streams.preloaded.deallocate()
            streams.work.deallocate()
        }
        bytes.deallocate()
    }

    /// The compression streams, the dictionary loaded into the first.
    private func compressionStreams()
        -> (preloaded: UnsafeMutablePointer<LZ4_stream_t>, work: UnsafeMutablePointer<LZ4_stream_t>)
    {
        if let streams { return streams }
        let preloaded = UnsafeMutablePointer<LZ4_stream_t>.allocate(capacity: 1)
        let work = UnsafeMutablePointer<LZ4_stream_t>.allocate(capacity: 1)
        LZ4_initStream(preloaded, MemoryLayout<LZ4_stream_t>.size)
        LZ4_initStream(work, MemoryLayout<LZ4_stream_t>.size)
        _ = LZ4_loadDict(preloaded, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(count))
        streams = (preloaded, work)
        return (preloaded, work)
    }

    /// The worst-case compressed size of `count` bytes.
    static func bound(_ count: Int) -> Int { Int(LZ4_compressBound(Int32(clamping: count))) }

    /// Compresses `input` into `output` (at least `bound(input.count)` bytes); returns the
    /// compressed size, or nil when LZ4 fails.
    func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int? {
        guard !input.isEmpty else { return nil }
        let (preloaded, work) = compressionStreams()
        LZ4_resetStream_fast(work)
        LZ4_attach_dictionary(work, preloaded)
        let written = LZ4_compress_fast_continue(
            work, input.baseAddress!.assumingMemoryBound(to: CChar.self),
            output.baseAddress!.assumingMemoryBound(to: CChar.self),
            Int32(clamping: input.count), Int32(clamping: output.count), 1)
        return written > 0 ? Int(written) : nil
    }

    /// Decompresses exactly `output.count` bytes from `input`; false when the block is damaged or
    /// does not decode to exactly that many bytes.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        guard !input.isEmpty, let source = input.baseAddress else { return output.isEmpty }
        guard let destination = output.baseAddress else { return false }
        let produced = LZ4_decompress_safe_usingDict(
            source.assumingMemoryBound(to: CChar.self), destination.assumingMemoryBound(to: CChar.self),
            Int32(clamping: input.count), Int32(clamping: output.count),
            bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(count))
        return produced >= 0 && Int(produced) == output.count
    }

    /// Builds a dictionary from sample payloads (in log order), deterministically: samples are
    /// grouped by event type in first-seen order and taken round-robin, newest first within a
    /// type, until `maxSize` bytes; the most common material ends up nearest the end, where LZ4
    /// offsets are shortest.
    static func train(samples: [(type: Int64, payload: [UInt8])], maxSize: Int) -> [UInt8] {
        var order: [Int64] = []
        var byType: [Int64: [[UInt8]]] = [:]
        for sample in samples {
            if byType[sample.type] == nil { order.append(sample.type) }
            byType[sample.type, default: []].append(sample.payload)
        }
        var picked: [[UInt8]] = []
        var total = 0
        var round = 0
        var progressed = true
        while total < maxSize && progressed {
            progressed = false
            for type in order {
                guard let list = byType[type], round < list.count else { continue }
                let sample = list[list.count - 1 - round]
                guard total + sample.count <= maxSize else { continue }
                picked.append(sample)
                total += sample.count
                progressed = true
            }
            round += 1
        }
        var dictionary: [UInt8] = []
        dictionary.reserveCapacity(total)
        for sample in picked.reversed() { dictionary.append(contentsOf: sample) }
        return dictionary
    }
}
