/// One `INSERT` shape run for `count` rows, in order: `width` rows to a statement while that
/// many remain (one step and one reset for them all instead of one per row), the rest one row
/// to a statement. A journal load writes its event rows and its id index this way; the
/// projections' `RowInserter` does the same over both of their backends.
enum MultiRowInsert {
    /// `many` and `one` give the statements for `width` rows and for one, each asked for only
    /// when needed. `bind(statement, row, offset)` binds row `row`'s `columns` at `offset + 1 …`.
    /// Each statement is reset after it runs, which clears its bindings: no pointer bound
    /// without a copy outlives this call.
    static func run(
        count: Int, width: Int, columns: Int,
        many: () throws(SQLiteError) -> SQLiteStatement,
        one: () throws(SQLiteError) -> SQLiteStatement,
        bind: (SQLiteStatement, Int, Int32) -> Void
    ) throws(SQLiteError) {
        var row = 0
        if count >= width {
            let statement = try many()
            defer { statement.reset() }
            while count - row >= width {
                for offset in 0..<width { bind(statement, row + offset, Int32(offset * columns)) }
                try statement.run()
                row += width
            }
        }
        guard row < count else { return }
        let statement = try one()
        defer { statement.reset() }
        while row < count {
            bind(statement, row, 0)
            try statement.run()
            row += 1
        }
    }
}
