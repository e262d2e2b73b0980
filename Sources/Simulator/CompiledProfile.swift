import Domain
import JournalCore

/// A weight table ready to draw from: values and cumulative weights.
struct WeightedTable<Value: Sendable>: Sendable {
    private(set) var values: [Value]
    private var cumulative: [Int64]
    var total: Int64 { cumulative.last ?? 0 }

    init(_ pairs: [(Value, Int64)]) {
        values = []
        cumulative = []
        var sum: Int64 = 0
        for (value, weight) in pairs where weight > 0 {
            sum += weight
            values.append(value)
            cumulative.append(sum)
        }
    }

    func draw(_ random: inout SeededRandom) -> Value {
        let roll = Int64(random.int(below: Int(total)))
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] > roll { high = mid } else { low = mid + 1 }
        }
        return values[low]
    }

    /// The draw of `filtered({ !excluded($0) })` without building that table (the same value
    /// for the same random state: its weights are those of the values kept, in order); nil,
    /// without a draw, when nothing is left.
    func draw(_ random: inout SeededRandom, excluding excluded: (Value) -> Bool) -> Value? {
        var total: Int64 = 0
        var previous: Int64 = 0
        for index in values.indices {
            if !excluded(values[index]) { total += cumulative[index] - previous }
            previous = cumulative[index]
        }
        guard total > 0 else { return nil }
        var roll = Int64(random.int(below: Int(total)))
        previous = 0
        for index in values.indices {
            let weight = cumulative[index] - previous
            previous = cumulative[index]
            if excluded(values[index]) { continue }
            if roll < weight { return values[index] }
            roll -= weight
        }
        return nil
    }

    /// The same table without the values `exclude` rejects (nil when nothing is left).
    func filtered(_ keep: (Value) -> Bool) -> WeightedTable<Value>? {
        var pairs: [(Value, Int64)] = []
        var previous: Int64 = 0
        for (index, value) in values.enumerated() {
            if keep(value) { pairs.append((value, cumulative[index] - previous)) }
            previous = cumulative[index]
        }
        let table = WeightedTable(pairs)
        return table.total > 0 ? table : nil
    }
}

/// A probability in basis points.
struct Chance: Sendable {
    var basisPoints: Int
    func roll(_ random: inout SeededRandom) -> Bool { random.int(below: 10_000) < basisPoints }
}

/// A delay distribution in milliseconds.
struct Delay: Sendable {
    var spec: DelaySpec
    func draw(_ random: inout SeededRandom) -> Int64 {
        guard let median = spec.median, let sigma = spec.sigma else {
            return random.int64(in: spec.minimum...spec.maximum)
        }
        let value = Double(median) * DeterministicMath.exp(sigma * random.standardNormal())
        let rounded = Int64(value.rounded())
        return min(max(rounded, spec.minimum), spec.maximum)
    }
}

/// The figures of a ``WorkloadProfile`` checked and turned into typed tables, once.
final class CompiledProfile: Sendable {
    enum ChallengeOutcome: String, Sendable, CaseIterable {
        case completedY, completedN, cancelled, timedOut, protocolError, runtimeError
    }

    enum Decision: String, Sendable, CaseIterable {
        case green, yellow, red
    }

    enum AfterInterruption: String, Sendable, CaseIterable {
        case resume, cancel, expire, issuerActivates, fail
    }

    // Traffic.
    let arrivalsPerSecond: Int64
    let hourlyShape: [Int64]
    let maxInFlight: Int
    let skewedDevices: Chance
    let deviceClockSkew: Delay
    let uploadDelay: Delay
    let platforms: WeightedTable<String>
    let timeOrderedEventIDs: Chance
    // 3DS.
    let directoryServers: WeightedTable<String>
    let customDirectoryServer: Chance
    let customDirectoryServers: WeightedTable<String>
    let messageVersions: WeightedTable<MessageVersion>
    let warnings: Chance
    let noDeviceData: Chance
    let abandonAfterCreate: Chance
    let abandonAfterAuthParameters: Chance
    let authResponse: WeightedTable<TransStatus>
    let abandonBeforeChallenge: Chance
    let sdkStep: Delay
    let authLatency: Delay
    let timeoutSeconds: WeightedTable<Int64>
    let challengeOutcome: WeightedTable<ChallengeOutcome>
    let uiTypes: WeightedTable<ACSUIType>
    /// `uiTypes` without 06 and 07 (for message versions before 2.3.0).
    let uiTypesBefore23: WeightedTable<ACSUIType>
    let otpSubmissions: WeightedTable<Int>
    let resend: Chance
    let extraScreen: Chance
    let protocolErrorCodes: WeightedTable<String>
    let runtimeErrorCodes: WeightedTable<String>
    let creqToCres: Delay
    let thinkTime3DS: Delay
    let oobTime: Delay
    // Card.
    let inputMethods: WeightedTable<InputMethod>
    let notEligible: Chance
    let eligibilityErrors: WeightedTable<String>
    let termsAccepted: Chance
    let decisionManual: WeightedTable<Decision>
    let decisionFromApp: WeightedTable<Decision>
    let methodsOffered: WeightedTable<Int>
    let methodTypes: WeightedTable<IDVMethodType>
    let appToAppWithCryptogram: Chance
    let otpSuccessByAttempt: [Chance]
    let otpAttemptsPerCode: Int64
    let otpExpired: Chance
    let otpCountMissing: Chance
    let failAfterExhausted: Chance
    let interruption: Chance
    let afterInterruption: WeightedTable<AfterInterruption>
    let issuerCompletion: Chance
    let issuerDelay: Delay
    let outOfBandActivation: Chance
    let otherNotification: Chance
    let cancel: Chance
    let failure: Chance
    let expiry: Chance
    let expiryDelay: Delay
    let smsDelay: Delay
    let emailDelay: Delay
    let appToAppDelay: Delay
    let thinkTimeCard: Delay
    let serverLatency: Delay
    let resumeDelay: Delay

    init(_ profile: WorkloadProfile) throws(ProfileError) {
        var reader = FigureReader(profile: profile)
        arrivalsPerSecond = try reader.integer("traffic.arrivalsPerSecond", in: 1...1_000_000)
        hourlyShape = try reader.integers("traffic.hourlyShape", count: 24, in: 0...1_000_000)
        guard hourlyShape.contains(where: { $0 > 0 }) else {
            throw ProfileError(path: "traffic.hourlyShape", reason: "needs at least one hour above 0")
        }
        maxInFlight = Int(try reader.integer("traffic.maxInFlight", in: 1...10_000_000))
        skewedDevices = try reader.chance("traffic.skewedDevices")
        deviceClockSkew = try reader.delay("traffic.deviceClockSkew")
        uploadDelay = try reader.delay("traffic.uploadDelay")
        timeOrderedEventIDs = try reader.chance("traffic.timeOrderedEventIDs")
        platforms = try reader.table("traffic.platforms") { Self.isErrorCode($0) ? $0 : nil }

        directoryServers = try reader.table("threeDS.directoryServers") { key in
            DirectoryServer.known.contains { $0.id == key } ? key : nil
        }
        customDirectoryServer = try reader.chance("threeDS.customDirectoryServer")
        customDirectoryServers = try reader.table("threeDS.customDirectoryServers") { key in
            let bytes = Array(key.utf8)
            let valid =
                bytes.count == 10 && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) }
            return valid ? key : nil
        }
        messageVersions = try reader.table("threeDS.messageVersions") { MessageVersion(rawValue: $0) }
        warnings = try reader.chance("threeDS.warnings")
        noDeviceData = try reader.chance("threeDS.noDeviceData")
        abandonAfterCreate = try reader.chance("threeDS.abandonAfterCreate")
        abandonAfterAuthParameters = try reader.chance("threeDS.abandonAfterAuthParameters")
        authResponse = try reader.table("threeDS.authResponse") { TransStatus(rawValue: $0) }
        abandonBeforeChallenge = try reader.chance("threeDS.abandonBeforeChallenge")
        sdkStep = try reader.delay("threeDS.sdkStep")
        authLatency = try reader.delay("threeDS.authLatency")
        timeoutSeconds = try reader.table("threeDS.timeoutSeconds") { key in
            Int64(key).flatMap { $0 >= 300 && $0 <= 86_400 ? $0 : nil }
        }
        challengeOutcome = try reader.table("threeDS.challengeOutcome") { ChallengeOutcome(rawValue: $0) }
        uiTypes = try reader.table("threeDS.uiTypes") { ACSUIType(rawValue: $0) }
        guard let before23 = uiTypes.filtered({ $0 != .htmlOOB && $0 != .information }) else {
            throw ProfileError(
                path: "threeDS.uiTypes",
                reason: "needs a weight above 0 for a UI type from 01 to 05 "
                    + "(06 and 07 exist from message version 2.3.0 only)")
        }
        uiTypesBefore23 = before23
        otpSubmissions = try reader.table("threeDS.otpSubmissions") {
            Int($0).flatMap { (1...20).contains($0) ? $0 : nil }
        }
        resend = try reader.chance("threeDS.resend")
        extraScreen = try reader.chance("threeDS.extraScreen")
        protocolErrorCodes = try reader.table("threeDS.protocolErrorCodes") { Self.isErrorCode($0) ? $0 : nil }
        runtimeErrorCodes = try reader.table("threeDS.runtimeErrorCodes") { Self.isErrorCode($0) ? $0 : nil }
        creqToCres = try reader.delay("threeDS.creqToCres")
        thinkTime3DS = try reader.delay("threeDS.thinkTime")
        oobTime = try reader.delay("threeDS.oobTime")

        inputMethods = try reader.table("card.inputMethods") { InputMethod(rawValue: $0) }
        notEligible = try reader.chance("card.notEligible")
        eligibilityErrors = try reader.table("card.eligibilityErrors") { Self.isErrorCode($0) ? $0 : nil }
        termsAccepted = try reader.chance("card.termsAccepted")
        decisionManual = try reader.table("card.decisionManual") { Decision(rawValue: $0) }
        decisionFromApp = try reader.table("card.decisionFromApp") { Decision(rawValue: $0) }
        methodsOffered = try reader.table("card.methodsOffered") { Int($0).flatMap { (1...5).contains($0) ? $0 : nil } }
        methodTypes = try reader.table("card.methodTypes") { IDVMethodType(rawValue: $0) }
        appToAppWithCryptogram = try reader.chance("card.appToAppWithCryptogram")
        otpSuccessByAttempt = try reader.integers("card.otpSuccessByAttempt", count: nil, in: 0...100)
            .map { Chance(basisPoints: Int($0) * 100) }
        guard !otpSuccessByAttempt.isEmpty else {
            throw ProfileError(path: "card.otpSuccessByAttempt", reason: "needs at least one percentage")
        }
        otpAttemptsPerCode = try reader.integer("card.otpAttemptsPerCode", in: 1...20)
        otpExpired = try reader.chance("card.otpExpired")
        otpCountMissing = try reader.chance("card.otpCountMissing")
        failAfterExhausted = try reader.chance("card.failAfterExhausted")
        interruption = try reader.chance("card.interruption")
        afterInterruption = try reader.table("card.afterInterruption") { AfterInterruption(rawValue: $0) }
        issuerCompletion = try reader.chance("card.issuerCompletion")
        issuerDelay = try reader.delay("card.issuerDelay")
        outOfBandActivation = try reader.chance("card.outOfBandActivation")
        otherNotification = try reader.chance("card.otherNotification")
        cancel = try reader.chance("card.cancel")
        failure = try reader.chance("card.failure")
        expiry = try reader.chance("card.expiry")
        expiryDelay = try reader.delay("card.expiryDelay")
        smsDelay = try reader.delay("card.smsDelay")
        emailDelay = try reader.delay("card.emailDelay")
        appToAppDelay = try reader.delay("card.appToAppDelay")
        thinkTimeCard = try reader.delay("card.thinkTime")
        serverLatency = try reader.delay("card.serverLatency")
        resumeDelay = try reader.delay("card.resumeDelay")
        let perStep = [interruption, outOfBandActivation, cancel, failure, expiry].reduce(0) { $0 + $1.basisPoints }
        guard perStep <= 5_000 else {
            throw ProfileError(
                path: "card",
                reason: "interruption + outOfBandActivation + cancel + failure + expiry "
                    + "must stay at or below 50 % per step, or few journeys reach activation")
        }
        try reader.checkAllRead()
    }

    /// Error codes are free strings in the catalog; a profile's must be short printable ASCII
    /// (they are written into events).
    static func isErrorCode(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 64,
            bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C })
        else { return false }
        // Nothing that looks like a card number (spec §3.3) may reach an event.
        return SensitiveDataGuard.check(data: .object(JSONObject([(key: "value", value: .string(text))])), meta: nil)
            == nil
    }
}

/// Reads figures by key and kind, remembering which were read.
private struct FigureReader {
    let profile: WorkloadProfile
    var read = Set<String>()

    mutating func figure(_ key: String) throws(ProfileError) -> FigureValue {
        guard let figure = profile[key] else { throw ProfileError(path: key, reason: "is missing from the profile") }
        read.insert(key)
        return figure.value
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int64>) throws(ProfileError) -> Int64 {
        guard case let .integer(value) = try figure(key) else {
            throw ProfileError(path: key, reason: "must be a value")
        }
        guard range.contains(value) else {
            throw ProfileError(
                path: key, reason: "must be from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
        return value
    }

    mutating func integers(_ key: String, count: Int?, in range: ClosedRange<Int64>) throws(ProfileError) -> [Int64] {
        guard case let .integers(values) = try figure(key) else {
            throw ProfileError(path: key, reason: "must be values")
        }
        if let count, values.count != count {
            throw ProfileError(path: key, reason: "must have \(count) values, got \(values.count)")
        }
        for value in values where !range.contains(value) {
            throw ProfileError(
                path: key, reason: "values must be from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
        return values
    }

    mutating func chance(_ key: String) throws(ProfileError) -> Chance {
        guard case let .percent(value) = try figure(key) else {
            throw ProfileError(path: key, reason: "must be a percent")
        }
        guard value >= 0 && value <= 100 else {
            throw ProfileError(path: key, reason: "must be a percentage from 0 to 100")
        }
        return Chance(basisPoints: Int((value * 100).rounded()))
    }

    mutating func delay(_ key: String) throws(ProfileError) -> Delay {
        guard case let .delay(spec) = try figure(key) else {
            throw ProfileError(path: key, reason: "must be a delayMs")
        }
        guard spec.minimum >= 0, spec.minimum <= spec.maximum, spec.maximum <= 30 * 86_400_000 else {
            throw ProfileError(path: key, reason: "needs 0 <= min <= max <= 2592000000 (30 days)")
        }
        if let median = spec.median {
            guard let sigma = spec.sigma, sigma >= 0, sigma <= 4, median > 0, median <= spec.maximum * 10 else {
                throw ProfileError(path: key, reason: "a log-normal delay needs median > 0 and sigma from 0 to 4")
            }
        } else if spec.sigma != nil {
            throw ProfileError(path: key, reason: "sigma needs a median")
        }
        return Delay(spec: spec)
    }

    mutating func table<Value>(_ key: String, _ convert: (String) -> Value?) throws(ProfileError) -> WeightedTable<
        Value
    > {
        guard case let .weights(entries) = try figure(key) else {
            throw ProfileError(path: key, reason: "must be weights")
        }
        var pairs: [(Value, Int64)] = []
        var seen = Set<String>()
        for entry in entries {
            guard let value = convert(entry.value) else {
                throw ProfileError(path: key, reason: "has an unknown or invalid value \"\(entry.value.prefix(40))\"")
            }
            guard seen.insert(entry.value).inserted else {
                throw ProfileError(path: key, reason: "lists \"\(entry.value.prefix(40))\" twice")
            }
            guard entry.weight >= 0 && entry.weight <= 1_000_000_000 else {
                throw ProfileError(path: key, reason: "weights must be from 0 to 1000000000")
            }
            pairs.append((value, entry.weight))
        }
        let table = WeightedTable(pairs)
        guard table.total > 0 else { throw ProfileError(path: key, reason: "needs at least one weight above 0") }
        return table
    }

    func checkAllRead() throws(ProfileError) {
        for figure in profile.figures where !read.contains(figure.key) {
            throw ProfileError(path: figure.key, reason: "is not a figure this simulator version reads")
        }
    }
}
