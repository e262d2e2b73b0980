import Domain

extension SummaryFieldsWriter {
    /// The value of field `index` (it begins where the one before it ends).
    func value(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Makes these the fields of `fields`, in the storage these had.
    mutating func assign(_ fields: StateFields) {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        for index in 0..<fields.count {
            bytes.append(contentsOf: fields[index])
            ends.append(bytes.count)
        }
    }
}
