import Domain
import JournalCore

/// A state's changes since the one before, as a lane finds them.
enum ReplayLaneChanges {
    /// Adds to `out` the fields of `new` that differ from those of `last`: their numbers to
    /// `changed`, their values to `new`, and with `withOld` their values in `last` to `old`.
    static func add(
        _ new: SummaryFieldsWriter, since last: SummaryFieldsWriter, to out: ReplayLaneOutput, withOld: Bool
    ) {
        let count = new.ends.count
        let lastCount = last.ends.count
        guard count > 0 else { return }
        new.bytes.withUnsafeBufferPointer { newBytes in
            new.ends.withUnsafeBufferPointer { newEnds in
                last.bytes.withUnsafeBufferPointer { lastBytes in
                    last.ends.withUnsafeBufferPointer { lastEnds in
                        var newStart = 0
                        var lastStart = 0
                        for index in 0..<count {
                            let newEnd = newEnds[index]
                            let lastEnd = index < lastCount ? lastEnds[index] : lastStart
                            let length = newEnd - newStart
                            if index >= lastCount || length != lastEnd - lastStart
                                || !Memory.equal(
                                    newBytes.baseAddress! + newStart, lastBytes.baseAddress! + lastStart, count: length)
                            {
                                out.changed.append(Int32(index))
                                out.new.bytes.append(
                                    contentsOf: UnsafeBufferPointer(rebasing: newBytes[newStart..<newEnd]))
                                out.new.ends.append(out.new.bytes.count)
                                if withOld {
                                    if index < lastCount {
                                        out.old.bytes.append(
                                            contentsOf: UnsafeBufferPointer(rebasing: lastBytes[lastStart..<lastEnd]))
                                    } else {
                                        out.old.bytes.append(contentsOf: "null".utf8)
                                    }
                                    out.old.ends.append(out.old.bytes.count)
                                }
                            }
                            newStart = newEnd
                            lastStart = lastEnd
                        }
                    }
                }
            }
        }
    }
}
