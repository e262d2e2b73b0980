import JournalCore
import Testing

@Suite("BackgroundTask")
struct BackgroundTaskTests {
    @Test
    func waitReturnsTheBodysValueEveryTimeItIsAsked() {
        let task = BackgroundTask { (1...1_000).reduce(0, +) }
        #expect(task.wait() == 500_500)
        #expect(task.wait() == 500_500)
    }

    @Test
    func chainedTasksHandOverAValueOneAtATimeInOrder() {
        final class Counter: @unchecked Sendable { var next = 0 }
        let counter = Counter()
        var seen: [Int] = []
        var pending = BackgroundTask { () -> Int in counter.next += 1; return counter.next }
        for _ in 0..<100 {
            let value = pending.wait()
            pending = BackgroundTask { () -> Int in counter.next += 1; return counter.next }
            seen.append(value)
        }
        _ = pending.wait()
        #expect(seen == Array(1...100))
        #expect(counter.next == 101)
    }
}
