import EventStore

/// What a replay that lets each stream's fold go at its last event may hold, for the memory
/// tests of `replay --all` and of recordings.
public enum OpenStreams {
    /// The most streams open across the end of a page of `page` events (begun at or before it,
    /// with an event after it), and the log's streams.
    public static func acrossPages(_ store: any EventStore, page: Int64) throws -> (open: Int, streams: Int) {
        var first: [StreamName: Int64] = [:]
        var last: [StreamName: Int64] = [:]
        var count: Int64 = 0
        var position: Int64 = 1
        while true {
            let events = try store.readAll(from: position, limit: 1000)
            guard let end = events.last else { break }
            for event in events {
                if first[event.stream] == nil { first[event.stream] = event.position }
                last[event.stream] = event.position
            }
            count = end.position
            position = end.position + 1
        }
        var open = 0
        var boundary = page
        while boundary < count {
            open = max(open, first.keys.count { first[$0]! <= boundary && last[$0]! > boundary })
            boundary += page
        }
        return (open, first.count)
    }
}
