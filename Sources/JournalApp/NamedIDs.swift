/// Which of the store's ids (streams or event types) have a name already: a flag per id, for the
/// check the scan makes on every event, where a dictionary lookup would hash each id. Ids are
/// dense from 1; an id beyond ``limit`` is never flagged, so its check falls back to the names.
package struct NamedIDs {
    /// Keeps a journal with an id far beyond its others from making the flags that long.
    static let limit: Int64 = 1 << 26

    private var flags: [Bool] = []

    func contains(_ id: Int64) -> Bool {
        id >= 0 && id < Int64(flags.count) && flags[Int(id)]
    }

    mutating func insert(_ id: Int64) {
        guard id >= 0, id < Self.limit else { return }
        let index = Int(id)
        if index >= flags.count {
            flags.append(contentsOf: repeatElement(false, count: max(index + 1 - flags.count, flags.count / 2)))
        }
        flags[index] = true
    }
}
