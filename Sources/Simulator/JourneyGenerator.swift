import Domain
import JournalCore

/// A seeded, deterministic generator of legal event sequences through every path of both flows.
///
/// It drives the domain's commands (`decide`) with an ``Environment`` made of a simulated clock
/// and UUIDs from ``SeededRandom``, so every event it emits passed the same rules as an import.
/// The same seed and the same calls give byte-identical journeys.
///
/// ```swift
/// let generator = JourneyGenerator(seed: 42)
/// let payment = generator.threeDSTransaction()
/// let card = generator.cardDigitization()
/// ```
///
/// Each journey starts on the generator's clock, which then moves on by a short random gap, so
/// consecutive journeys overlap in time the way concurrent users do.
public final class JourneyGenerator {
    /// The default start of the simulated clock: 2026-11-29T08:00:00.000Z.
    public static let defaultStart = Timestamp(millisecondsSinceEpoch: 1_796_025_600_000)

    public internal(set) var random: SeededRandom
    /// When the next journey starts.
    public internal(set) var nextStart: Timestamp

    /// The clock of the journey being generated.
    var now: Timestamp
    var path: [String] = []

    public init(seed: UInt64, start: Timestamp = JourneyGenerator.defaultStart) {
        random = SeededRandom(seed: seed)
        nextStart = start
        now = start
    }

    /// A journey of `category`.
    public func journey(_ category: StreamCategory) -> GeneratedJourney {
        switch category {
        case .threeDS: return threeDSTransaction()
        case .card: return cardDigitization()
        }
    }

    /// Starts a journey: resets the per-journey clock and path, moves the next start on.
    func beginJourney() {
        now = nextStart
        path = []
        nextStart = nextStart.adding(milliseconds: random.int64(in: 50...3_000))
    }

    /// Advances the journey clock by a random delay in milliseconds.
    func wait(_ milliseconds: ClosedRange<Int64>) {
        now = now.adding(milliseconds: random.int64(in: milliseconds))
    }

    /// The environment handed to `decide`: the journey clock and seeded UUIDs.
    var environment: Environment {
        Environment(now: { [unowned self] in self.now }, newID: { [unowned self] in self.random.uuid() })
    }

    func makeEvent(stream: String, id: String, type: String, data: JSONObject, occurredAt: Timestamp) -> GeneratedEvent {
        GeneratedEvent(id: id, stream: stream, type: type, data: data, occurredAt: occurredAt)
    }
}
