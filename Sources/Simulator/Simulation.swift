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
    public private(set) var statistics = SimulationStatistics()

    private let compiled: CompiledProfile
    private let generator: JourneyGenerator
    private var random: SeededRandom
    private var queue: JourneyQueue
    private var slots: [InFlightJourney?] = []
    private var freeSlots: [Int32] = []
    private var sequence: UInt64 = 0
    private var transactionsLeft: Int
    private var digitizationsLeft: Int
    /// The scheduled true time of the next arrival (ms).
    private var nextArrival: Int64
    /// The `recordedAt` of the last event handed out.
    private var lastRecordedAt: Int64
    private let hourlyMean: Double

    /// The number of journeys in flight (admitted, not all events handed out).
    public var inFlight: Int { queue.count }
    /// The most journeys that can be in flight at once (`traffic.maxInFlight`).
    public var maxInFlight: Int { compiled.maxInFlight }

    /// - Throws: ``ProfileError`` when the profile cannot be used.
    public init(seed: UInt64, transactions: Int, digitizations: Int, profile: WorkloadProfile = .realistic,
                start: Timestamp = JourneyGenerator.defaultStart, recordsPaths: Bool = false) throws(ProfileError) {
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
        generator = JourneyGenerator(random: SeededRandom(seed: root.next()), start: start, profile: compiled,
                                     recordsDetails: recordsPaths)
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
        while transactionsLeft + digitizationsLeft > 0 && queue.count < compiled.maxInFlight
            && (queue.first.map { nextArrival <= $0.time } ?? true) {
            admit()
        }
        guard let top = queue.first, let journey = slots[Int(top.slot)] else { return nil }
        let event = journey.takeNext()
        lastRecordedAt = event.recordedAt.millisecondsSinceEpoch
        if let following = journey.nextTime {
            queue.replaceFirst(JourneyQueue.Entry(time: following, sequence: top.sequence, slot: top.slot))
        } else {
            _ = queue.popFirst()
            slots[Int(top.slot)] = nil
            freeSlots.append(top.slot)
        }
        statistics.events += 1
        if statistics.firstRecordedAt == nil { statistics.firstRecordedAt = event.recordedAt }
        statistics.lastRecordedAt = event.recordedAt
        return event
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
        let journey = generator.journey(isThreeDS ? .threeDS : .card, startingAt: Timestamp(millisecondsSinceEpoch: start),
                                        skew: skew)
        statistics.record(journey)
        if generator.recordsDetails {
            for label in journey.path { pathCounts[label, default: 0] += 1 }
        }
        let pending = pendingEvents(journey, skew: skew, start: start, platform: platform)
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

    /// The events of a journey with their `recordedAt` (upload delays, never decreasing), packed
    /// into one buffer: two allocations per journey in flight, whatever its length, so that
    /// long-lived journeys do not pin scattered heap pages.
    private func pendingEvents(_ journey: GeneratedJourney, skew: Int64, start: Int64, platform: String)
        -> InFlightJourney {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(journey.events.count * 200)
        var entries: [InFlightJourney.Entry] = []
        entries.reserveCapacity(journey.events.count)
        var recorded = start
        for (index, event) in journey.events.enumerated() {
            let trueTime = event.occurredAt.millisecondsSinceEpoch - skew
            recorded = max(recorded, trueTime + compiled.uploadDelay.draw(&random))
            bytes.append(contentsOf: event.id.utf8)
            let idEnd = bytes.count
            JSONWriter.write(.object(event.data), into: &bytes)
            let dataEnd = bytes.count
            if index == 0 { Self.writeMeta(platform: platform, random: &random, into: &bytes) }
            entries.append(InFlightJourney.Entry(type: event.type, occurredAt: event.occurredAt.millisecondsSinceEpoch,
                                                 recordedAt: recorded, idEnd: Int32(idEnd), dataEnd: Int32(dataEnd),
                                                 metaEnd: Int32(bytes.count)))
        }
        return InFlightJourney(stream: journey.stream, bytes: bytes, entries: entries)
    }

    /// The first event's `meta`: the SDK's platform and versions.
    private static func writeMeta(platform: String, random: inout SeededRandom, into bytes: inout [UInt8]) {
        var object = JSONObject()
        object.appendUnchecked(key: "platform", value: .string(platform))
        object.appendUnchecked(key: "sdkVersion", value: .string(random.pick(sdkVersions)))
        object.appendUnchecked(key: "appVersion", value: .string(random.pick(appVersions)))
        JSONWriter.write(.object(object), into: &bytes)
    }

    private static let sdkVersions = ["2.4.1", "2.4.0", "2.3.7"]
    private static let appVersions = ["5.12.0", "5.11.2", "5.10.4"]

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

/// An admitted journey whose events have not all been handed out: ids, data and meta packed in
/// one buffer.
final class InFlightJourney {
    struct Entry {
        var type: String
        var occurredAt: Int64
        var recordedAt: Int64
        /// The id is `bytes[previous metaEnd ..< idEnd]`, the data `[idEnd ..< dataEnd]`, the meta
        /// (if any) `[dataEnd ..< metaEnd]`.
        var idEnd: Int32
        var dataEnd: Int32
        var metaEnd: Int32
    }

    let stream: String
    private let bytes: [UInt8]
    private let entries: [Entry]
    private var cursor = 0

    init(stream: String, bytes: [UInt8], entries: [Entry]) {
        self.stream = stream
        self.bytes = bytes
        self.entries = entries
    }

    var nextTime: Int64? { cursor < entries.count ? entries[cursor].recordedAt : nil }

    func takeNext() -> SimulatedEvent {
        let entry = entries[cursor]
        let start = cursor == 0 ? 0 : Int(entries[cursor - 1].metaEnd)
        defer { cursor += 1 }
        let id = String(decoding: bytes[start..<Int(entry.idEnd)], as: UTF8.self)
        let data = Array(bytes[Int(entry.idEnd)..<Int(entry.dataEnd)])
        let meta = entry.metaEnd > entry.dataEnd ? Array(bytes[Int(entry.dataEnd)..<Int(entry.metaEnd)]) : nil
        return SimulatedEvent(id: id, stream: stream, version: Int64(cursor), type: entry.type,
                              occurredAt: Timestamp(millisecondsSinceEpoch: entry.occurredAt),
                              recordedAt: Timestamp(millisecondsSinceEpoch: entry.recordedAt), data: data, meta: meta)
    }
}
