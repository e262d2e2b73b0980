import JournalCore
import Testing

@Suite("WorkerThread")
struct WorkerThreadTests {
    /// Written by the jobs on the worker's thread, read here once a wait has returned.
    final class Log: @unchecked Sendable {
        var entries: [Int] = []
    }

    @Test("jobs given before the last is done run one at a time, in the order given")
    func jobsRunInOrder() {
        let worker = WorkerThread()
        let log = Log()
        var tickets: [Int] = []
        for index in 0..<200 {
            tickets.append(worker.start { log.entries.append(index) })
        }
        worker.wait()
        #expect(log.entries == Array(0..<200))
        #expect(tickets == Array(1...200))
    }

    @Test("a wait for a ticket returns once that job and the ones before it have returned")
    func waitForATicket() {
        let worker = WorkerThread()
        let log = Log()
        for round in 0..<50 {
            let first = worker.start { log.entries.append(2 * round) }
            let second = worker.start { log.entries.append(2 * round + 1) }
            worker.wait(for: first)
            #expect(log.entries.count >= 2 * round + 1)
            #expect(log.entries.prefix(2 * round + 1).elementsEqual(0...(2 * round)))
            worker.wait(for: second)
            #expect(log.entries == Array(0...(2 * round + 1)))
        }
    }

    @Test("a worker let go with jobs given runs them before its thread ends")
    func letGoAfterJobs() {
        let log = Log()
        do {
            let worker = WorkerThread()
            for index in 0..<10 { worker.start { log.entries.append(index) } }
        }
        #expect(log.entries == Array(0..<10))
    }
}
