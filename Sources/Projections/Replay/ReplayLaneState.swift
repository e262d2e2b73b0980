import Domain

/// A state in a lane's output, read where the lane wrote it: the run compares its changes,
/// writes them, or (comparing) copies the state into what it keeps, without a copy of its own for
/// every event.
struct ReplayLaneState {
    /// The lane's output (shared, not copied: the lane writes to it only once the run has taken
    /// the batch).
    private let output: ReplayLaneOutput
    /// The state's first field in the output's `fields` (comparing; -1 recording).
    private let first: Int
    let count: Int
    /// Its changes in the output's `changed`, `new` and `old`.
    private let changes: Range<Int>
    /// Recording, its stream's last event: its final state in the output's `finals`.
    private let final: Range<Int>

    init(_ output: ReplayLaneOutput, _ result: ReplayLaneResult) {
        self.output = output
        first = Int(result.first)
        count = Int(result.fieldCount)
        changes = Int(result.changes)..<Int(result.changes + result.changeCount)
        final = Int(result.finalStart)..<Int(result.finalEnd)
    }

    /// The value of field `index` (comparing: the lane writes whole states then).
    subscript(index: Int) -> ArraySlice<UInt8> { output.fields.value(first + index) }

    /// The numbers of the fields that differ from the stream's state before (its initial one
    /// before its first event), in order.
    var changedFields: ArraySlice<Int32> { output.changed[changes] }

    /// The value of the changed field at `change` (an index in ``changedFields``).
    func changedValue(_ change: Int) -> ArraySlice<UInt8> { output.new.value(change) }

    /// True when the fields `indices` of the state before, with `values` in their place, are
    /// these fields: when `indices` are the changed fields, and the values theirs.
    func hasChanges(_ indices: [Int], values: StateFields) -> Bool {
        guard indices.count == changes.count else { return false }
        for (position, change) in changes.enumerated() {
            guard indices[position] == Int(output.changed[change]),
                values.sameField(position, asBytes: changedValue(change))
            else { return false }
        }
        return true
    }

    /// Appends the stream's final state, as the lane wrote it at its last event (recording).
    func appendFinal(to bytes: inout [UInt8]) { bytes.append(contentsOf: output.finals[final]) }

    /// True when field `index` has the same bytes here as field `otherIndex` (by default the
    /// same) in `other`.
    func sameField(_ index: Int, as other: StateFields, at otherIndex: Int? = nil) -> Bool {
        let otherIndex = otherIndex ?? index
        guard otherIndex < other.count else { return false }
        return other.sameField(otherIndex, asBytes: self[index])
    }

    /// A copy the run keeps.
    func copy() -> StateFields {
        var fields = StateFields()
        for index in 0..<count { fields.append(self[index]) }
        return fields
    }

    /// The stream's state before this one: these fields with the changed ones' values before.
    func stateBefore() -> StateFields {
        var fields = StateFields()
        var next = changes.lowerBound
        for index in 0..<count {
            if next < changes.upperBound, Int(output.changed[next]) == index {
                fields.append(output.old.value(next))
                next += 1
            } else {
                fields.append(self[index])
            }
        }
        return fields
    }
}
