import EventStore
import JournalApp
import JournalCore
import Projections

/// `journal report --out FILE`: the report page of a window written to a file (mode 0600).
package enum ReportFile {
    /// Writes the page of `window` from `engine`'s read models, as of the log of `store`, to
    /// `path`, and returns the line the command prints.
    package static func write(
        to path: String, window: QueryWindow, engine: ProjectionEngine, store: any EventStore
    ) throws -> String {
        let asOf = try JournalAsOf.read(from: store)
        let data = try ReadModels.reporting { () throws(ProjectionError) in
            try ReportData.load(engine, window: window, asOf: asOf)
        }
        try OutputSink.writeFile(path, ReportPage(data: data).html)
        return "wrote \(TextRendering.printable(path)): \(data.events) events, \(data.window), "
            + "rates over time per \(ReportPage.widthName(data.every))"
    }
}
