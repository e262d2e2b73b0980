import EventStore
import JournalCore

/// `journal import`'s pipeline: every line of an NDJSON input through the ``Importer`` (JSON,
/// envelope, catalog, the stream's rules, the sensitive-data guard, idempotency) into a new
/// journal's load or one write transaction of a store, all or nothing unless invalid lines go
/// to a rejects file (docs/import.md, docs/decisions/import-load.md).
package enum ImportRun {
    /// Counts for the summary.
    package struct Summary {
        package var lines = 0
        package var appended = 0
        package var duplicates = 0
        package var rejected = 0
        /// Set when the input turned out not to be NDJSON (reading stopped there).
        package var notNDJSON: NotNDJSON?
        /// The line that showed it.
        package var notNDJSONLine = 0
    }

    /// Thrown inside the transaction to roll it back when an all-or-nothing import found a bad
    /// line, or the input is not NDJSON.
    private struct RollBack: Error {}

    /// Thrown by an import into a new journal's load at its first invalid line: the load is
    /// abandoned and the import starts again in the store's write transaction, which reports
    /// every line exactly (an invalid line may hold an id used earlier in the input, which only
    /// the store's lookup tells).
    private struct LeaveLoad: Error {}

    /// What an import did: the counts, the invalid lines, and the store to sign a checkpoint in.
    package struct Outcome {
        package var summary: Summary
        package var errors: ImportErrorReport
        /// True when the import made no journal at a path where none was (nothing to sign).
        package var keptNoJournal: Bool
        /// The store the import wrote through, if it is open (nil: the journal at its path).
        package var store: (any TransactionalEventStore)?

        /// True when nothing of the input was kept: not NDJSON, or a rejected line without a
        /// rejects file.
        package var rolledBack: Bool { summary.notNDJSON != nil || (summary.rejected > 0 && !hasRejectsFile) }
        /// True when invalid lines went to a rejects file.
        package var hasRejectsFile: Bool
    }

    /// Imports the lines of `reader` (opened on `inputPath`) into the journal `arguments` name;
    /// each invalid line is reported on stderr (the first 100) and, with `rejectsPath`, written
    /// there. Throws what stops the import (I/O, a conflict, the store's errors); rejected lines
    /// are in the outcome.
    package static func perform(
        reader: NDJSONLineReader, inputPath: String, maxLine: Int, rejectsPath: String?,
        progress: (any ProgressReporting)?, arguments: ParsedArguments, context: CommandContext
    ) throws -> Outcome {
        var input = PreparedLines(reader: reader)
        defer { input.close() }
        var bytesConsumed: Int64 = 0
        var rejects = try rejectsPath.map { path throws(CLIError) in try OutputSink.create(path: path) }
        // A load of a new journal may have to read the input again (an id it holds twice): only
        // a regular file can be. Other input goes through a store (`importThroughStore`).
        let target =
            FileSystem.entry(at: inputPath) == .file ? try JournalAccess.openForImport(context, arguments) : nil

        var summary = Summary()
        var errors = ImportErrorReport()
        let parser = JSONParser()
        var rejectLine: [UInt8] = []

        func reject(_ line: InputLine, _ rejection: Importer.Rejection, print: Bool = true) {
            summary.rejected += 1
            if let text = errors.record(line: line.number, rejection), print {
                progress?.clear()
                context.stderr.line("error: " + text)
            }
            if let rejects {
                rejectLine.removeAll(keepingCapacity: true)
                writeReject(line, reason: rejection.reason, parser: parser, into: &rejectLine)
                rejects.write(bytes: rejectLine)
            }
        }
        func notNDJSON(_ line: InputLine, _ kind: NotNDJSON) {
            summary.notNDJSON = kind
            summary.notNDJSONLine = line.number
            // Said once, at the end, with the hint.
            reject(line, Importer.Rejection(reason: kind.reason, rule: NotNDJSON.rule), print: false)
        }

        /// Every line of `input` through `importer`; throws `RollBack` when nothing may be kept.
        func importLines(_ importer: inout Importer) throws {
            var seenNonBlank = false
            // A first line that opens an object and stops: pretty-printed JSON if the next
            // line goes on with a key, else an ordinary invalid line.
            var held: (line: InputLine, rejection: Importer.Rejection)?
            var next = try input.next()
            reading: while var chunk = next {
                next = nil
                bytesConsumed = chunk.bytesConsumed
                for index in chunk.lines.indices {
                    let line = chunk.lines[index].line
                    summary.lines = line.number
                    if line.number & 0xFF == 0 {
                        progress?.update(done: bytesConsumed, events: Int64(line.number))
                    }
                    if case .blank = chunk.lines[index].content { continue }
                    // The content moves into the importer (the payload into the event it
                    // appends) rather than being copied; the chunk frees the rest.
                    var prepared = Importer.PreparedLine(line: line, content: .blank)
                    swap(&prepared.content, &chunk.lines[index].content)
                    let first = !seenNonBlank
                    seenNonBlank = true
                    if let pending = held {
                        held = nil
                        if NotNDJSON.continuesObject(line) {
                            notNDJSON(pending.line, .prettyPrinted)
                            break reading
                        }
                        reject(pending.line, pending.rejection)
                    }
                    switch try importer.importPrepared(prepared) {
                    case .appended:
                        summary.appended += 1
                    case .duplicate:
                        summary.duplicates += 1
                    case let .rejected(rejection):
                        if importer.isLoad { throw LeaveLoad() }
                        if first && NotNDJSON.isArrayStart(line, rule: rejection.rule, reason: rejection.reason) {
                            notNDJSON(line, .jsonArray)
                            break reading
                        }
                        if first && rejection.rule == "json"
                            && NotNDJSON.isPartialObject(line, reason: rejection.reason)
                        {
                            held = (line, rejection)
                        } else {
                            reject(line, rejection)
                        }
                    }
                }
                next = try input.next(after: chunk)
            }
            if let held { reject(held.line, held.rejection) }
            if summary.notNDJSON != nil || (summary.rejected > 0 && rejects == nil) { throw RollBack() }
        }

        /// The import in one write transaction of `store`.
        func importThrough(_ store: any TransactionalEventStore) throws {
            do {
                try store.write { transaction in
                    var importer = Importer(transaction: transaction)
                    try importLines(&importer)
                }
            } catch is RollBack {
                // Nothing was written; fall through to the report.
            }
        }

        /// Set when the import made no journal at a path where none was (nothing to sign).
        var keptNoJournal = false
        /// The import in one write transaction of a store: for a SQLite path where no journal is
        /// yet, of a new journal that gets the path only if the import keeps something (else
        /// nothing is left there: spec §9). Returns the store to sign in (nil: the journal
        /// at its path).
        func importThroughStore() throws -> (any TransactionalEventStore)? {
            guard let new = try JournalAccess.openNewForWriting(context, arguments) else {
                let opened = try JournalAccess.openForWriting(context, arguments, bulk: true)
                try importThrough(opened)
                return opened
            }
            do {
                guard let store = new.store else { throw NewJournalFile.over(new.path) }
                try importThrough(store)
            } catch {
                new.abandon()
                throw error
            }
            let rolledBack = summary.notNDJSON != nil || (summary.rejected > 0 && rejects == nil)
            if !rolledBack && (summary.appended > 0 || summary.rejected == 0) {
                try new.keep()
            } else {
                new.abandon()
                keptNoJournal = true
            }
            return nil
        }

        // The store the checkpoint is signed in (opened after a load, when asked for).
        var store: (any TransactionalEventStore)?
        switch target {
        case nil:
            store = try importThroughStore()
        case let .store(opened)?:
            store = opened
            try importThrough(opened)
        case let .load(load)?:
            do {
                var importer = Importer(load: load)
                try importLines(&importer)
                try load.finish()
            } catch is RollBack {
                // Nothing was written: no journal is left at the path.
                load.abandon()
            } catch let error where error is LeaveLoad || (error as? EventStoreError)?.code == .duplicateIDConflict {
                // An invalid line, or an id that occurs twice in the input: the load wrote
                // nothing, said nothing, and the import starts again in the store's write
                // transaction, which tells an idempotent duplicate from other content under the
                // same id and reports each line as it is (docs/decisions/import-load.md).
                load.abandon()
                input.close()
                input = PreparedLines(reader: try NDJSONLineReader.open(path: inputPath, maxLineLength: maxLine))
                summary = Summary()
                errors = ImportErrorReport()
                bytesConsumed = 0
                if let rejectsPath {
                    try rejects?.close()
                    rejects = try OutputSink.create(path: rejectsPath)
                }
                store = try importThroughStore()
            } catch {
                load.abandon()
                throw error
            }
        }
        progress?.finish(done: bytesConsumed, events: Int64(summary.lines))
        try rejects?.close()
        return Outcome(
            summary: summary, errors: errors, keptNoJournal: keptNoJournal, store: store,
            hasRejectsFile: rejectsPath != nil)
    }

    /// `{"line":N,"reason":"…","input":"<the line as text>"}` and a line feed. The input is
    /// masked as spec §4 says (``SensitiveData/maskedLine(_:isJSON:)``); the reason is
    /// masked already.
    package static func writeReject(_ line: InputLine, reason: String, parser: JSONParser, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"line":"#.utf8)
        out.append(contentsOf: String(line.number).utf8)
        out.append(contentsOf: #","reason":"#.utf8)
        JSONWriter.writeString(reason, into: &out)
        out.append(contentsOf: #","input":"#.utf8)
        if case .tooLong = line.problem {
            out.append(contentsOf: "null".utf8) // never held in memory
        } else {
            // Invalid UTF-8 becomes U+FFFD so the rejects file stays valid JSON.
            let parsed = line.problem == nil ? try? parser.parse(line.bytes) : nil
            JSONWriter.writeString(SensitiveData.maskedLine(line.bytes, isJSON: parsed), into: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }
}
