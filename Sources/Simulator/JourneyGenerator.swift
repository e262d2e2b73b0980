import Domain
import JournalCore

/// A seeded, deterministic generator of legal event sequences through every path of both flows.
///
/// It drives the domain's commands (`decide`) with an ``Environment`` made of a simulated clock
/// and UUIDs from ``SeededRandom``, so every event it emits passed the same rules as an import.
/// Every share and delay comes from a ``WorkloadProfile``. The same seed, profile and calls give
/// byte-identical journeys.
///
/// ```swift
/// let generator = JourneyGenerator(seed: 42)              // the coverage profile
/// let payment = generator.threeDSTransaction()
/// let card = generator.cardDigitization()
/// ```
///
/// Used alone, each journey starts on the generator's clock, which then moves on by a short
/// random gap. ``Simulation`` instead starts journeys at their arrival times and interleaves them.
public final class JourneyGenerator {
    /// The default start of the simulated clock: 2026-11-29T08:00:00.000Z.
    public static let defaultStart = Timestamp(millisecondsSinceEpoch: 1_795_939_200_000)

    // One thread uses a generator at a time, and no two accesses overlap (the journey code
    // passes `random` inout one call at a time): the run-time exclusivity checks on these
    // per-draw properties are skipped. They pay: simulate into a new journal, 285k events,
    // 47.7 s → 49.4 s CPU over 16 alternating runs with the checks (docs/benchmarks-history.md,
    // "Exclusivity checks").
    @exclusivity(unchecked) public internal(set) var random: SeededRandom
    /// When the next journey starts (when used without a ``Simulation``).
    public internal(set) var nextStart: Timestamp

    let profile: CompiledProfile
    /// The true time of the journey being generated.
    @exclusivity(unchecked) var now: Timestamp
    /// The journey's device clock error: `occurredAt = now + skew`.
    @exclusivity(unchecked) var skew: Int64 = 0
    /// The journey's producer writes UUIDv7 event ids.
    @exclusivity(unchecked) var timeOrderedIDs = false
    /// Record `path` and `commands` (tests, coverage); the simulation turns it off.
    let recordsDetails: Bool
    /// Write events into ``packed`` instead of a journey's `events` (the simulation).
    let packsEvents: Bool
    /// The events of the journey being generated, when ``packsEvents``.
    @exclusivity(unchecked) private(set) var packed = PackedEvents()
    @exclusivity(unchecked) var path: [String] = []
    @exclusivity(unchecked) private(set) var environment: Environment!
    /// The id the environment made last, with its words: the domain emits each event right
    /// after asking for its id, so `emit` finds them here instead of parsing the text.
    @exclusivity(unchecked) private var lastID: (text: String, high: UInt64, low: UInt64)?

    /// A generator on the ``WorkloadProfile/coverage`` profile, which shows every path in a few
    /// thousand journeys.
    public convenience init(seed: UInt64, start: Timestamp = JourneyGenerator.defaultStart) {
        // The built-in profiles are checked by the tests; compiling them cannot fail.
        try! self.init(seed: seed, start: start, profile: .coverage)
    }

    /// - Throws: ``ProfileError`` when the profile cannot be used.
    public convenience init(
        seed: UInt64, start: Timestamp = JourneyGenerator.defaultStart,
        profile: WorkloadProfile
    ) throws(ProfileError) {
        self.init(
            random: SeededRandom(seed: seed), start: start, profile: try CompiledProfile(profile),
            recordsDetails: true, packsEvents: false)
    }

    init(random: SeededRandom, start: Timestamp, profile: CompiledProfile, recordsDetails: Bool, packsEvents: Bool) {
        self.random = random
        self.profile = profile
        self.recordsDetails = recordsDetails
        self.packsEvents = packsEvents
        nextStart = start
        now = start
        // The environment is a stored property of the generator and never outlives it: the
        // closures reach back without reference counting.
        environment = Environment(
            now: { [unowned(unsafe) self] in self.now.adding(milliseconds: self.skew) },
            newID: { [unowned(unsafe) self] in
                let words =
                    self.timeOrderedIDs
                    ? self.random.uuidV7Words(milliseconds: self.now.millisecondsSinceEpoch + self.skew)
                    : self.random.uuidWords()
                let text = UUIDText.lowercaseText(high: words.high, low: words.low)
                self.lastID = (text, words.high, words.low)
                return text
            })
    }

    /// A journey of `category`.
    public func journey(_ category: StreamCategory) -> GeneratedJourney {
        switch category {
        case .threeDS: return threeDSTransaction()
        case .card: return cardDigitization()
        }
    }

    /// A journey of `category` starting at `start` on a device whose clock is off by `skew` ms.
    func journey(_ category: StreamCategory, startingAt start: Timestamp, skew: Int64) -> GeneratedJourney {
        now = start
        self.skew = skew
        timeOrderedIDs = profile.timeOrderedEventIDs.basisPoints > 0 && profile.timeOrderedEventIDs.roll(&random)
        path = []
        switch category {
        case .threeDS: return makeThreeDSTransaction()
        case .card: return makeCardDigitization()
        }
    }

    /// A 3DS transaction through one of the flow's paths (see ``makeThreeDSTransaction()``).
    public func threeDSTransaction() -> GeneratedJourney {
        beginJourney()
        return makeThreeDSTransaction()
    }

    /// A card digitization journey through one of the flow's paths.
    public func cardDigitization() -> GeneratedJourney {
        beginJourney()
        return makeCardDigitization()
    }

    /// Starts a journey: resets the per-journey clock and path, moves the next start on.
    func beginJourney() {
        now = nextStart
        skew = 0
        path = []
        nextStart = nextStart.adding(milliseconds: random.int64(in: 50...3_000))
    }

    /// Advances the journey clock by `milliseconds`.
    func wait(_ milliseconds: Int64) {
        now = now.adding(milliseconds: milliseconds)
    }

    /// Advances the journey clock by a delay drawn from `delay`.
    func wait(_ delay: Delay) {
        wait(delay.draw(&random))
    }

    /// Records an event of the journey being generated: its data written straight into
    /// ``packed`` (the simulation), else a ``GeneratedEvent`` with its `data` into `events`.
    func emit<Event: PackableEvent>(_ new: NewEvent<Event>, stream: String, into events: inout [GeneratedEvent]) {
        if packsEvents {
            // The same string object (its text compared only when not).
            let words = lastID.flatMap { $0.text == new.id ? ($0.high, $0.low) : nil }
            packed.append(id: new.id, words: words, typeIndex: new.event.type.rawValue, occurredAt: new.occurredAt) {
                writer in
                new.event.writeData(to: &writer)
            }
        } else {
            events.append(
                GeneratedEvent(
                    id: new.id, stream: stream, type: new.event.typeName, data: new.event.data,
                    occurredAt: new.occurredAt))
        }
    }

    /// The packed entries of the journey just generated (its data are in `packed.bytes` until
    /// the simulation takes them); the next journey starts a new list.
    func takePackedEntries() -> [InFlightJourney.Entry] {
        packed.takeEntries()
    }

    /// The scratch buffer holding the packed data of the journey just generated.
    var packedBytes: ByteScratch { packed.bytes }

    /// Records a notable step (only when details are recorded).
    func note(_ step: @autoclosure () -> String) {
        if recordsDetails { path.append(step()) }
    }

    func roll(_ chance: Chance) -> Bool { chance.roll(&random) }

    func draw<Value>(_ table: WeightedTable<Value>) -> Value { table.draw(&random) }
}
