import Domain
import JournalCore

/// A day of traffic from the two SDKs: `transactions` 3DS streams and `digitizations` card
/// streams, interleaved in time as concurrent users are, produced one event at a time in the
/// order they reach the journal.
///
/// - **Arrivals**: journeys start as a Poisson process whose rate follows the profile's hourly
///   shape; each arrival is a 3DS transaction or a card journey in proportion to what is left of
///   each count, so both spread over the whole run.
/// - **Journeys** are generated at their arrival through the domain's commands
///   (``JourneyGenerator``), with think times and network delays from the profile, on a device
///   clock that may be off (`occurredAt`); each event reaches the journal after an upload delay
///   (`recordedAt`, never decreasing along the run).
/// - **Interleaving**: in-flight journeys wait in a priority queue keyed by their next event's
///   `recordedAt`; ``next()`` takes the earliest.
/// - **Memory** is bounded by `traffic.maxInFlight`, whatever the counts: an arrival that finds
///   every slot taken waits until a journey ends (counted in ``SimulationStatistics/deferredArrivals``).
///
/// The same seed, counts, profile and start give the same events, byte for byte.
public final class Simulation {
    public let seed: UInt64
    public let transactions: Int
    public let digitizations: Int
    public let profile: WorkloadProfile
    @exclusivity(unchecked) public private(set) var statistics = SimulationStatistics()

    private let compiled: CompiledProfile
    private let generator: JourneyGenerator
    // Used by one thread at a time, one access at a time: no run-time exclusivity checks on
    // the per-event state. They pay: simulate into a new journal, 285k events, 44.9 s → 46.5 s
    // CPU over 16 alternating runs with the checks (docs/benchmarks-history.md, "Exclusivity checks").
    @exclusivity(unchecked) private var random: SeededRandom
    @exclusivity(unchecked) private var queue: JourneyQueue
    @exclusivity(unchecked) private var slots: [InFlightJourney?] = []
    @exclusivity(unchecked) private var freeSlots: [Int32] = []
    @exclusivity(unchecked) private var sequence: UInt64 = 0
    @exclusivity(unchecked) private var transactionsLeft: Int
    @exclusivity(unchecked) private var digitizationsLeft: Int
    /// The scheduled true time of the next arrival (ms).
    @exclusivity(unchecked) private var nextArrival: Int64
    /// The `recordedAt` of the last event handed out.
    @exclusivity(unchecked) private var lastRecordedAt: Int64
    private let hourlyMean: Double

    /// The number of journeys in flight (admitted, not all events handed out).
    public var inFlight: Int { queue.count }
    /// The most journeys that can be in flight at once (`traffic.maxInFlight`).
    public var maxInFlight: Int { compiled.maxInFlight }

    /// - Throws: ``ProfileError`` when the profile cannot be used.
    public init(
        seed: UInt64, transactions: Int, digitizations: Int, profile: WorkloadProfile = .realistic,
        start: Timestamp = JourneyGenerator.defaultStart, recordsPaths: Bool = false
    ) throws(ProfileError) {
        guard transactions >= 0, digitizations >= 0 else {
            throw ProfileError(path: "", reason: "the counts of transactions and digitizations must be >= 0")
        }
        self.seed = seed
        self.transactions = transactions
        self.digitizations = digitizations
        self.profile = profile
        compiled = try CompiledProfile(profile)
        // Two independent streams of random numbers: one for the traffic (arrivals, devices,
        // upload delays), one for what happens inside journeys.
        var root = SeededRandom(seed: seed)
        random = SeededRandom(seed: root.next())
        generator = JourneyGenerator(
            random: SeededRandom(seed: root.next()), start: start, profile: compiled,
            recordsDetails: recordsPaths, packsEvents: true)
        queue = JourneyQueue(capacity: min(compiled.maxInFlight, 1 << 16))
        transactionsLeft = transactions
        digitizationsLeft = digitizations
        nextArrival = start.millisecondsSinceEpoch
        lastRecordedAt = start.millisecondsSinceEpoch
        hourlyMean = Double(compiled.hourlyShape.reduce(0, +)) / 24
        scheduleNextArrival()
    }

    /// The next event in `recordedAt` order, or nil when every journey has been handed out.
    public func next() -> SimulatedEvent? {
        withNext { event, journey in
            SimulatedEvent(
                id: event.id.string, stream: journey.stream, version: event.version, type: event.type,
                occurredAt: event.occurredAt, recordedAt: event.recordedAt,
                data: Array(event.data), meta: event.meta.map { Array($0) })
        }
    }

    /// The next event lent to `body` in place (`InFlightJourney.withNext`), with its journey;
    /// nil when every journey has been handed out.
    func withNext<R>(_ body: (InFlightJourney.BorrowedEvent, InFlightJourney) -> R) -> R? {
        while transactionsLeft + digitizationsLeft > 0 && queue.count < compiled.maxInFlight
            && (queue.first.map { nextArrival <= $0.time } ?? true)
        {
            admit()
        }
        guard let top = queue.first, let journey = slots[Int(top.slot)] else { return nil }
        let (result, recordedAt) = journey.withNext { event in (body(event, journey), event.recordedAt) }
        lastRecordedAt = recordedAt.millisecondsSinceEpoch
        if let following = journey.nextTime {
            queue.replaceFirst(JourneyQueue.Entry(time: following, sequence: top.sequence, slot: top.slot))
        } else {
            _ = queue.popFirst()
            slots[Int(top.slot)] = nil
            freeSlots.append(top.slot)
        }
        statistics.events += 1
        if statistics.firstRecordedAt == nil { statistics.firstRecordedAt = recordedAt }
        statistics.lastRecordedAt = recordedAt
        return result
    }

    /// The path labels of every journey so far (only when created with `recordsPaths`).
    public private(set) var pathCounts: [String: Int] = [:]

    // MARK: - Arrivals

    private func admit() {
        var start = nextArrival
        if start < lastRecordedAt {
            // Every slot was taken when this journey arrived: it starts when one freed up.
            start = lastRecordedAt
            statistics.deferredArrivals += 1
        }
        let isThreeDS = random.int(below: transactionsLeft + digitizationsLeft) < transactionsLeft
        if isThreeDS { transactionsLeft -= 1 } else { digitizationsLeft -= 1 }
        let skew: Int64
        if compiled.skewedDevices.roll(&random) {
            let size = compiled.deviceClockSkew.draw(&random)
            skew = random.chance(50) ? size : -size
        } else {
            skew = 0
        }
        let platform = compiled.platforms.draw(&random)
        let journey = generator.journey(
            isThreeDS ? .threeDS : .card, startingAt: Timestamp(millisecondsSinceEpoch: start),
            skew: skew)
        var entries = generator.takePackedEntries()
        statistics.record(journey, events: entries)
        if generator.recordsDetails {
            for label in journey.path { pathCounts[label, default: 0] += 1 }
        }
        let pending = pendingEvents(
            journey, &entries, generator.packedBytes, skew: skew, start: start, platform: platform)
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(slot)] = pending
        } else {
            slot = Int32(slots.count)
            slots.append(pending)
        }
        sequence += 1
        queue.push(JourneyQueue.Entry(time: pending.nextTime ?? start, sequence: sequence, slot: slot))
        statistics.peakInFlight = max(statistics.peakInFlight, queue.count)
        scheduleNextArrival()
    }

    /// The events of a journey (packed by the generator) with their `recordedAt` (upload
    /// delays, never decreasing) and the first event's meta: two allocations per journey in
    /// flight, whatever its length, so that long-lived journeys do not pin scattered heap pages.
    private func pendingEvents(
        _ journey: GeneratedJourney, _ entries: inout [InFlightJourney.Entry], _ bytes: ByteScratch,
        skew: Int64, start: Int64, platform: String
    ) -> InFlightJourney {
        var recorded = start
        let metaStart = bytes.count
        for index in entries.indices {
            let trueTime = entries[index].occurredAt - skew
            recorded = max(recorded, trueTime + compiled.uploadDelay.draw(&random))
            entries[index].recordedAt = recorded
            // The meta's draws come right after the first event's upload delay.
            if index == 0 { Self.writeMeta(platform: platform, random: &random, into: bytes) }
        }
        return InFlightJourney(stream: journey.stream, bytes: bytes.takeAll(), entries: entries, metaStart: metaStart)
    }

    /// The first event's `meta`: the SDK's platform and versions, and the marker every simulated
    /// event carries (`InFlightJourney.simulatedMeta` for the others).
    private static func writeMeta(platform: String, random: inout SeededRandom, into bytes: ByteScratch) {
        // {"platform":…,"sdkVersion":…,"appVersion":…,"simulated":true}, as JSONWriter writes it.
        bytes.append(#"{"platform":"# as StaticString)
        bytes.appendJSONString(platform)
        // The versions' JSON text made once (the same draws as `random.pick`).
        let sdkVersion = sdkVersionsJSON[random.int(below: sdkVersionsJSON.count)]
        let appVersion = appVersionsJSON[random.int(below: appVersionsJSON.count)]
        bytes.append(#","sdkVersion":"# as StaticString)
        sdkVersion.withUnsafeBufferPointer { bytes.append($0) }
        bytes.append(#","appVersion":"# as StaticString)
        appVersion.withUnsafeBufferPointer { bytes.append($0) }
        bytes.append(#","simulated":true}"# as StaticString)
    }

    private static let sdkVersionsJSON = quoted(["2.4.1", "2.4.0", "2.3.7"])
    private static let appVersionsJSON = quoted(["5.12.0", "5.11.2", "5.10.4"])

    private static func quoted(_ strings: [String]) -> [[UInt8]] {
        strings.map { string in
            var text: [UInt8] = []
            JSONWriter.writeString(string, into: &text)
            return text
        }
    }

    /// Draws the gap to the next arrival at the rate of the current hour.
    private func scheduleNextArrival() {
        while true {
            let hour = Int(((nextArrival % 86_400_000) + 86_400_000) % 86_400_000 / 3_600_000)
            let weight = compiled.hourlyShape[hour]
            if weight == 0 {
                // No arrivals this hour: move to the next one.
                nextArrival = (nextArrival / 3_600_000 + 1) * 3_600_000
                continue
            }
            let perMillisecond = Double(compiled.arrivalsPerSecond) * Double(weight) / hourlyMean / 1_000
            nextArrival += Int64(random.exponential(mean: 1 / perMillisecond).rounded())
            return
        }
    }
}
