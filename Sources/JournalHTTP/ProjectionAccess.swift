import JournalApp
import JournalCore
import Projections

/// The read-model engine, one request at a time (it is not thread-safe): reached only through
/// `with` and `close`, under `lock`. (A `Mutex` would need the engine sent into it, and the
/// engine shares the store with the server, so the compiler cannot prove that hand-over: the
/// engine is handed over with `HandOver`, and the lock orders its uses.)
package final class ProjectionAccess: Sendable {
    private let lock = ConditionLock()
    private let engine: HandOver<ProjectionEngine>

    package init(engine: ProjectionEngine) {
        self.engine = HandOver(engine)
    }

    func with<R>(_ body: (ProjectionEngine) throws -> R) throws -> R {
        try lock.withLock { try body(engine.value) }
    }

    /// Closes the engine's read models (the server has stopped: no request is in flight).
    package func close() {
        lock.withLock { engine.value.close() }
    }
}
