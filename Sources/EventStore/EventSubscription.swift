/// Catch-up and live reading of the whole log, for any `EventStore`: first every stored event
/// with position ≥ `from`, in position order, then each new event as it is committed. It never
/// ends by itself; stop iterating (or cancel the task) to stop.
///
/// Pull-based: a page (`pageSize` events) is read only when the previous one was consumed, so a
/// slow consumer holds at most one page in memory and never makes the store buffer. When caught
/// up it waits with `EventStore.waitForCommit(after:timeout:)`: the SQLite store wakes at once on
/// commits of its own process, and sees other processes' commits within `pollInterval`.
///
/// ```swift
/// for try await event in store.follow(from: checkpoint + 1) {
///     try project(event)
/// }
/// ```
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = RecordedEvent

    let store: any EventStore
    let from: Int64
    let pollInterval: Duration
    let pageSize: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, next: Swift.max(from, 1), pollInterval: pollInterval, pageSize: pageSize)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let store: any EventStore
        var next: Int64
        let pollInterval: Duration
        let pageSize: Int
        var buffer: [RecordedEvent] = []
        var index = 0

        public mutating func next() async throws -> RecordedEvent? {
            while true {
                if index < buffer.count {
                    let event = buffer[index]
                    index += 1
                    next = event.position + 1
                    return event
                }
                try Task.checkCancellation()
                buffer = try store.readAll(from: next, limit: pageSize)
                index = 0
                if buffer.isEmpty {
                    await store.waitForCommit(after: next - 1, timeout: pollInterval)
                }
            }
        }
    }
}

/// The blocking form of `EventSubscription`, for threads that are not in an async context.
public final class EventFollower {
    let store: any EventStore
    /// The position of the next event this follower returns.
    public private(set) var nextPosition: Int64
    let pollInterval: Duration
    let pageSize: Int
    private var buffer: [RecordedEvent] = []
    private var index = 0

    public init(
        store: any EventStore, from position: Int64, pollInterval: Duration = .milliseconds(100),
        pageSize: Int = 1_000
    ) {
        self.store = store
        nextPosition = max(position, 1)
        self.pollInterval = pollInterval
        self.pageSize = pageSize
    }

    /// The next event, waiting up to `timeout` for one to be committed; nil on timeout.
    public func next(timeout: Duration) throws(EventStoreError) -> RecordedEvent? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if index < buffer.count {
                let event = buffer[index]
                index += 1
                nextPosition = event.position + 1
                return event
            }
            buffer = try store.readAll(from: nextPosition, limit: pageSize)
            index = 0
            guard buffer.isEmpty else { continue }
            let now = clock.now
            guard now < deadline else { return nil }
            store.waitForCommit(after: nextPosition - 1, timeout: min(pollInterval, now.duration(to: deadline)))
        }
    }
}
