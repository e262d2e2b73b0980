import JournalCore
import Testing

@Suite("BackgroundTask")
struct BackgroundTaskTests {
    @Test("wait hands over the body's value, and finish after it returns at once")
    func waitReturnsTheBodysValue() {
        let task = BackgroundTask { (1...1_000).reduce(0, +) }
        #expect(task.wait() == 500_500)
        task.finish()
        task.finish()
    }

    @Test("a non-Sendable value made by the body crosses back to the caller")
    func nonSendableResultCrosses() {
        final class Rows { var values: [Int] = [] }
        let rows = Rows()
        let task = BackgroundTask { () -> Rows in
            rows.values = Array(1...3)
            return rows
        }
        #expect(task.wait().values == [1, 2, 3])
    }

    @Test("chained tasks hand over a value one at a time, in order")
    func chainedTasksHandOverAValueOneAtATimeInOrder() {
        final class Counter: @unchecked Sendable { var next = 0 }
        let counter = Counter()
        var seen: [Int] = []
        var pending = BackgroundTask { () -> Int in
            counter.next += 1
            return counter.next
        }
        for _ in 0..<100 {
            let value = pending.wait()
            pending = BackgroundTask { () -> Int in
                counter.next += 1
                return counter.next
            }
            seen.append(value)
        }
        pending.finish()
        #expect(seen == Array(1...100))
        #expect(counter.next == 101)
    }
}
