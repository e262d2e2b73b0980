import JournalCore
import Synchronization

/// Wakes followers when any process commits: a background thread holds a session that runs
/// `LISTEN journal_commits_<schema>` and publishes each notification's head position to the store's
/// `CommitSignal`. Every commit sends `pg_notify(channel, head)` inside its
/// transaction, so the notification arrives exactly when the commit is visible.
///
/// The thread waits in `poll` on the session's socket (a quarter second at a time, to notice
/// `stop`), reconnects after a lost connection, and is joined by `stop()`. When it cannot listen,
/// followers still poll at their `pollInterval`, so a missing notification only delays them.
final class PostgresCommitListener: Sendable {
    /// The channel of the journal in `schema`: commits of journals in other schemas of the same
    /// database must not wake this one's followers.
    static func channel(schema: String) -> String {
        String(("journal_commits_" + schema).utf8.prefix(63)) ?? "journal_commits"
    }

    private let url: String
    private let channel: String
    private let signal: CommitSignal
    private let state = Mutex(Running())

    /// Whether `stop` was called, and the listening thread while it runs.
    private struct Running {
        var stopping = false
        var thread: SystemThread?
    }

    init(url: String, schema: String, signal: CommitSignal) {
        self.url = url
        channel = Self.channel(schema: schema)
        self.signal = signal
    }

    /// Starts the thread (once).
    func start() {
        state.withLock { running in
            guard running.thread == nil, !running.stopping else { return }
            running.thread = SystemThread { self.loop() }
        }
    }

    /// Stops the thread and waits for it to end.
    func stop() {
        let thread = state.withLock { running -> SystemThread? in
            running.stopping = true
            defer { running.thread = nil }
            return running.thread
        }
        thread?.join()
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func loop() {
        while !isStopping {
            guard let connection = try? PostgresConnection(url),
                (try? connection.execute("LISTEN \"\(channel.replacing("\"", with: "\"\""))\"")) != nil
            else {
                pause(milliseconds: 500)
                continue
            }
            while !isStopping && connection.isConnected {
                guard let readable = try? FileDescriptor(rawValue: connection.socket).waitReadable(milliseconds: 250)
                else { break }
                if !readable { continue }
                guard let received = try? connection.notifications() else { break }
                var head: Int64 = 0
                for notification in received where notification.channel == channel {
                    head = max(head, Int64(notification.payload) ?? 0)
                }
                if !received.isEmpty { signal.publish(max(head, 1)) }
            }
        }
    }

    private func pause(milliseconds: Int) {
        var remaining = milliseconds
        while remaining > 0 && !isStopping {
            SystemClock.sleep(nanoseconds: 50_000_000)
            remaining -= 50
        }
    }
}
