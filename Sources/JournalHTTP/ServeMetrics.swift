import JournalApp
import Synchronization

/// The server's own counters for `GET /metrics`, shared by every connection thread. The
/// journal's figures (events, head, domain counters) are read when scraped.
package final class ServeMetrics: Sendable {
    /// Upper bounds, in seconds, of the append latency histogram's buckets.
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        /// Requests by route pattern and status code.
        var requests: [String: [Int: Int]] = [:]
        /// Appends answered 200, by bucket (cumulative when rendered).
        var latencyCounts = [Int](repeating: 0, count: ServeMetrics.latencyBuckets.count)
        var latencyCount = 0
        var latencySum = 0.0
        var appendedEvents = 0
        var duplicateEvents = 0
    }

    private let state = Mutex(State())

    func request(route: String, status: Int) {
        state.withLock { $0.requests[route, default: [:]][status, default: 0] += 1 }
    }

    /// A successful `POST /v1/events`: from its headers to its durable commit.
    func append(seconds: Double, appended: Int, duplicates: Int) {
        state.withLock { state in
            if let bucket = Self.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                state.latencyCounts[bucket] += 1
            }
            state.latencyCount += 1
            state.latencySum += seconds
            state.appendedEvents += appended
            state.duplicateEvents += duplicates
        }
    }

    /// What the journal holds, read at scrape time.
    package struct JournalFigures {
        var events: Int64
        var head: Int64
        /// `3ds` transactions by outcome (completedY, closed, timedOut, …).
        var threeDSOutcomes: [(String, Int64)]
        var threeDSOTPSubmissions: Int64
        var cardOTPSubmissions: Int64
        /// Requests between their headers and the end of their answer (this scrape included).
        var inFlight: Int
    }

    /// Prometheus text exposition format 0.0.4.
    func render(_ journal: JournalFigures) -> String {
        let snapshot = state.withLock { $0 }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("journal_events_total", "counter", "Events in the journal.")
        out += "journal_events_total \(journal.events)\n"
        family("journal_head_position", "gauge", "The last committed position.")
        out += "journal_head_position \(journal.head)\n"
        family("journal_http_requests_total", "counter", "HTTP requests answered, by route pattern and status code.")
        for route in snapshot.requests.keys.sorted() {
            for (code, count) in snapshot.requests[route, default: [:]].sorted(by: { $0.key < $1.key }) {
                out += "journal_http_requests_total{route=\"\(Self.escaped(route))\",code=\"\(code)\"} \(count)\n"
            }
        }
        family("journal_http_requests_in_flight", "gauge", "Requests received and not yet answered, this one included.")
        out += "journal_http_requests_in_flight \(journal.inFlight)\n"
        family(
            "journal_http_append_duration_seconds", "histogram",
            "POST /v1/events answered 200: from the request's headers to its durable commit.")
        var cumulative = 0
        for (index, bound) in Self.latencyBuckets.enumerated() {
            cumulative += snapshot.latencyCounts[index]
            out += "journal_http_append_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "journal_http_append_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.latencyCount)\n"
        out += "journal_http_append_duration_seconds_sum \(snapshot.latencySum)\n"
        out += "journal_http_append_duration_seconds_count \(snapshot.latencyCount)\n"
        family(
            "journal_http_appended_events_total", "counter", "Events appended through POST /v1/events by this server.")
        out += "journal_http_appended_events_total \(snapshot.appendedEvents)\n"
        family(
            "journal_http_duplicate_events_total", "counter",
            "Events POST /v1/events found already in the journal (idempotent retries).")
        out += "journal_http_duplicate_events_total \(snapshot.duplicateEvents)\n"
        family("journal_3ds_transactions", "gauge", "3DS transactions in the journal by outcome.")
        for (outcome, count) in journal.threeDSOutcomes {
            out += "journal_3ds_transactions{outcome=\"\(Self.escaped(outcome))\"} \(count)\n"
        }
        family("journal_otp_submissions_total", "counter", "OTP submissions in the journal, by flow.")
        out += "journal_otp_submissions_total{flow=\"3ds\"} \(journal.threeDSOTPSubmissions)\n"
        out += "journal_otp_submissions_total{flow=\"card\"} \(journal.cardOTPSubmissions)\n"
        return out
    }

    /// A label value: backslash, double quote and line feed escaped.
    static func escaped(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
