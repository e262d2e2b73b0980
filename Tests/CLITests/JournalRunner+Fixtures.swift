import EventStore
import Foundation

extension JournalRunner {
    /// Writes `lines` as an NDJSON file and returns its path.
    func ndjson(_ name: String, _ lines: [String]) throws -> String {
        try write(name, lines.joined(separator: "\n") + "\n")
    }

    /// Imports `lines` into this runner's journal, expecting success.
    @discardableResult
    func importLegal(_ lines: [String], name: String = "events.ndjson") throws -> Result {
        let result = try run(["import", try ndjson(name, lines)])
        guard result.status == 0 else {
            throw FixtureError(message: "import failed (\(result.status)): \(result.stderr)")
        }
        return result
    }

    /// Replaces the first occurrence of `original` in the journal file by `replacement` (same
    /// length): a change behind the journal's back, as an attacker with file access would make.
    func tamper(replacing original: String, with replacement: String) throws {
        precondition(original.utf8.count == replacement.utf8.count, "same length keeps the file readable")
        // Move every committed page from the WAL into the database file first: WAL frames carry
        // checksums, the main file's pages do not.
        let connection = try SQLiteConnection(path: database)
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: database)))
        let needle = Array(original.utf8)
        guard
            let index = bytes.indices.dropLast(needle.count - 1).first(where: {
                bytes[$0..<($0 + needle.count)].elementsEqual(needle)
            })
        else {
            throw FixtureError(message: "'\(original)' not found in the journal file")
        }
        bytes.replaceSubrange(index..<(index + needle.count), with: Array(replacement.utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: database))
    }

    /// The export's lines parsed as JSON objects.
    func exportedObjects(_ arguments: [String] = [], db: Bool = true) throws -> [[String: Any]] {
        let result = try run(["export"] + arguments, db: db)
        guard result.status == 0 else { throw FixtureError(message: "export failed: \(result.stderr)") }
        return try result.stdoutLines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw FixtureError(message: "export line is not an object: \(line)")
            }
            return object
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
