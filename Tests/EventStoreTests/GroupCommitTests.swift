import EventStore
import JournalCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `count` threads at once (real OS threads, not the cooperative pool).
func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Box: @unchecked Sendable {
        let body: (Int) -> Void
        let index: Int
        init(_ body: @escaping (Int) -> Void, _ index: Int) {
            self.body = body
            self.index = index
        }
    }
    var threads: [pthread_t] = []
    for index in 0..<count {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body, index)).toOpaque()
        pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body(box.index)
                return nil
            }, box)
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

@Suite("Group commit")
struct GroupCommitTests {
    @Test(arguments: Backend.all)
    func concurrentAppendersAllSucceedWithGaplessPositions(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let threads = 16
        let perThread = 25
        runThreads(threads) { thread in
            for n in 0..<perThread {
                let event = Fixture.event(thread * 1000 + n)
                _ = try? store.append([event], to: Fixture.stream(thread % 4), expectedVersion: .any)
            }
        }
        let all = try store.readAll(from: 1, limit: 10_000)
        #expect(all.map(\.position) == Array(1...Int64(threads * perThread)))
        #expect(Set(all.map(\.id)).count == threads * perThread)
        #expect(try store.verify().events == Int64(threads * perThread))
    }

    @Test func concurrentAppendersShareTransactions() throws {
        var configuration = SQLiteEventStore.Configuration()
        configuration.synchronous = .full
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("journal.db"), configuration: configuration)
        let threads = 64
        runThreads(threads) { thread in
            for n in 0..<10 {
                _ = try? store.append(
                    [Fixture.event(thread * 100 + n)], to: Fixture.stream(thread), expectedVersion: .any)
            }
        }
        #expect(try store.headPosition() == Int64(threads * 10))
        // 640 appends, each waiting for durability: far fewer commits (fsyncs) than appends.
        #expect(store.groupCommitCount < threads * 10)
        #expect(store.groupCommitCount > 0)
    }

    @Test func oneConflictingAppenderDoesNotFailTheOthersInItsGroup() throws {
        let store = try SQLiteEventStore(path: TemporaryDirectory.make().file("journal.db"))
        try store.append([Fixture.event(0)], to: Fixture.stream(0), expectedVersion: .any)
        final class Outcomes: @unchecked Sendable {
            var conflicts = 0, successes = 0
            let lock = Mutex()
        }
        let outcomes = Outcomes()
        runThreads(32) { thread in
            // Half the threads expect a stream that does not exist; they must all fail alone.
            let expected: ExpectedVersion = thread % 2 == 0 ? .noStream : .any
            do {
                try store.append([Fixture.event(thread + 1)], to: Fixture.stream(0), expectedVersion: expected)
                outcomes.lock.locked { outcomes.successes += 1 }
            } catch {
                let code = (error as? EventStoreError)?.code
                outcomes.lock.locked { outcomes.conflicts += code == .conflict ? 1 : 0 }
            }
        }
        #expect(outcomes.conflicts == 16)
        #expect(outcomes.successes == 16)
        #expect(try store.headPosition() == 17)
        #expect(try store.verify().events == 17)
    }
}

/// A plain pthread mutex for test bookkeeping.
final class Mutex: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func locked<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
