import JournalApp

/// The routes of spec §8, named by their pattern (the access log's and the metrics' `route`).
package enum APIRoute: String, Sendable, CaseIterable {
    case index = "/"
    case healthz = "/healthz"
    case metrics = "/metrics"
    case events = "/v1/events"
    case stream = "/v1/streams/{stream}"
    case query = "/v1/query/{name}"
    case checkpoint = "/v1/checkpoint"
    case proof = "/v1/proof/{position}"
    case bundle = "/v1/bundle/{stream}"
    /// An extension of spec §8: `journal find` over HTTP, for the dashboard's stream browser.
    case find = "/v1/find"
    /// `journal replay STREAM --format json` over HTTP, for the dashboard's audit view.
    case replay = "/v1/replay/{stream}"
    /// Any other path.
    case unmatched = "unmatched"

    /// The route of `path` and its one parameter (the part after the prefix).
    static func match(_ path: String) -> (route: APIRoute, parameter: String?) {
        switch path {
        case "/": return (.index, nil)
        case "/healthz": return (.healthz, nil)
        case "/metrics": return (.metrics, nil)
        case "/v1/events": return (.events, nil)
        case "/v1/checkpoint": return (.checkpoint, nil)
        case "/v1/find": return (.find, nil)
        default: break
        }
        for (prefix, route) in [
            ("/v1/streams/", APIRoute.stream), ("/v1/query/", .query), ("/v1/proof/", .proof),
            ("/v1/bundle/", .bundle), ("/v1/replay/", .replay)
        ] where path.hasPrefix(prefix) {
            let parameter = String(path.dropFirst(prefix.count))
            if !parameter.isEmpty && !parameter.contains("/") { return (route, parameter) }
        }
        return (.unmatched, nil)
    }

    /// The methods the route answers.
    var methods: [String] {
        switch self {
        case .events: return ["GET", "POST"]
        case .index, .healthz, .metrics, .stream, .query, .checkpoint, .proof, .bundle, .find, .replay:
            return ["GET"]
        case .unmatched: return []
        }
    }
}
