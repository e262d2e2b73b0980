/// "did you mean …?" for a misspelt name: the one known name nearest to what was typed, within a
/// Damerau–Levenshtein distance (optimal string alignment: insert, delete, substitute, swap two
/// neighbours) of 2, ignoring letter case.
package enum NameSuggestion {
    package static let maximumDistance = 2

    /// The known name nearest to `typed`, or nil when none is within the distance (and fewer
    /// edits away than `typed` has characters) or two are equally near (a guess between two
    /// names would mislead). `typed` itself, exactly as written, is never suggested.
    package static func nearest(to typed: String, among known: [String]) -> String? {
        guard !typed.isEmpty, typed.unicodeScalars.count <= 64 else { return nil }
        let target = Array(typed.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        var tie = false
        for name in known where name != typed {
            let distance = self.distance(Array(name.lowercased().unicodeScalars), target)
            // Fewer edits than letters typed: "x" is not a misspelt "id".
            guard distance <= maximumDistance, distance < target.count else { continue }
            if let current = best, distance >= current.distance {
                if distance == current.distance { tie = true }
            } else {
                best = (name, distance)
                tie = false
            }
        }
        return tie ? nil : best?.name
    }

    /// The optimal string alignment distance between `a` and `b`.
    package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }

    /// ` (did you mean "occurredAt"?)`-style suffix, or "" without a suggestion.
    package static func hint(for typed: String, among known: [String]) -> String {
        guard let name = nearest(to: typed, among: known) else { return "" }
        return "; did you mean \"\(name)\"?"
    }
}
