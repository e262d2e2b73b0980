import Glibc
import JournalCore
import Testing

@testable import Simulator

/// The profile: every built-in compiles, the JSON form round-trips, and a bad file is refused
/// with the figure at fault.
@Suite("Workload profile")
struct WorkloadProfileTests {
    @Test(arguments: WorkloadProfile.builtInNames)
    func everyBuiltInProfileCompiles(name: String) throws {
        let profile = try #require(WorkloadProfile.builtIn(named: name))
        #expect(profile.name == name)
        _ = try CompiledProfile(profile)
        #expect(profile.figures.allSatisfy { !$0.source.isEmpty })
    }

    @Test func theDefaultProfileIsFiftyEightPercentFrictionless() throws {
        guard case let .weights(entries)? = WorkloadProfile.realistic["threeDS.authResponse"]?.value else {
            Issue.record("threeDS.authResponse is not a weight table")
            return
        }
        let total = entries.reduce(0) { $0 + $1.weight }
        let frictionless = entries.filter { $0.value == "Y" || $0.value == "A" }.reduce(0) { $0 + $1.weight }
        #expect(frictionless * 100 == total * 58)
    }

    @Test(arguments: WorkloadProfile.builtInNames)
    func thePrintedProfileReadsBackAsTheSameProfile(name: String) throws {
        let profile = try #require(WorkloadProfile.builtIn(named: name))
        let bytes = Array(JSONWriter.string(profile.jsonValue).utf8)
        let loaded = try WorkloadProfile.load(file: bytes, sourceLabel: "test", base: "default")
        #expect(loaded == profile)
    }

    @Test func aFileMayReplaceSomeFiguresOfItsBase() throws {
        let file =
            #"{"formatVersion":1,"name":"mine","base":"europe","figures":{"threeDS.authResponse":{"weights":{"Y":1,"#
            + #""C":1}},"card.notEligible":{"percent":12.5,"source":"our telemetry"}}}"#
        let profile = try WorkloadProfile.load(file: Array(file.utf8), sourceLabel: "profile file mine.json", base: nil)
        #expect(profile.name == "mine")
        #expect(profile["threeDS.authResponse"]?.value == .weights([WeightEntry("Y", 1), WeightEntry("C", 1)]))
        #expect(profile["threeDS.authResponse"]?.source == "profile file mine.json")
        #expect(
            profile["card.notEligible"] == ProfileFigure("card.notEligible", .percent(12.5), source: "our telemetry"))
        #expect(profile["threeDS.directoryServers"] == WorkloadProfile.europe["threeDS.directoryServers"])
    }

    @Test(arguments: [
        (#"{"figures":{}}"#, "formatVersion is required (1)"),
        (#"{"formatVersion":2}"#, "formatVersion is 2; this simulator reads version 1"),
        (#"{"formatVersion":1,"figure":{}}"#, "\"figure\" is not a key of a profile file"),
        (
            #"{"formatVersion":1,"figures":{"threeDS.authResponses":{"weights":{"Y":1}}}}"#,
            "threeDS.authResponses is not a figure of the profile"
        ),
        (
            #"{"formatVersion":1,"figures":{"threeDS.authResponse":{"percent":5}}}"#,
            "threeDS.authResponse must be a weights, got a percent"
        ),
        (
            #"{"formatVersion":1,"figures":{"threeDS.authResponse":{"weights":{"Z":1}}}}"#,
            "threeDS.authResponse has an unknown or invalid value \"Z\""
        ),
        (
            #"{"formatVersion":1,"figures":{"threeDS.authResponse":{"weights":{"Y":-1}}}}"#,
            "threeDS.authResponse weights must be from 0 to 1000000000"
        ),
        (
            #"{"formatVersion":1,"figures":{"threeDS.authResponse":{"weights":{"Y":0}}}}"#,
            "threeDS.authResponse needs at least one weight above 0"
        ),
        (
            #"{"formatVersion":1,"figures":{"card.notEligible":{"percent":101}}}"#,
            "card.notEligible must be a percentage from 0 to 100"
        ),
        (
            #"{"formatVersion":1,"figures":{"threeDS.timeoutSeconds":{"weights":{"120":1}}}}"#,
            "threeDS.timeoutSeconds has an unknown or invalid value \"120\""
        ),
        (
            #"{"formatVersion":1,"figures":{"threeDS.runtimeErrorCodes":{"weights":{"4111111111111111":1}}}}"#,
            "threeDS.runtimeErrorCodes has an unknown or invalid value"
        ),
        (
            #"{"formatVersion":1,"figures":{"traffic.maxInFlight":{"value":0}}}"#,
            "traffic.maxInFlight must be from 1 to 10000000, got 0"
        ),
        (
            #"{"formatVersion":1,"figures":{"traffic.uploadDelay":{"delayMs":{"min":5,"max":1}}}}"#,
            "traffic.uploadDelay needs 0 <= min <= max"
        ),
        (
            #"{"formatVersion":1,"figures":{"traffic.hourlyShape":{"values":[1,2]}}}"#,
            "traffic.hourlyShape must have 24 values, got 2"
        ),
        (#"{"formatVersion":1,"base":"nowhere"}"#, "base is \"nowhere\"; the built-in profiles are"),
        ("[1]", "must be a JSON object"),
        ("{", "is not valid JSON")
    ])
    func aBadProfileFileIsRefusedWithTheFigureAtFault(file: String, message: String) {
        do {
            _ = try WorkloadProfile.load(file: Array(file.utf8), sourceLabel: "test", base: nil)
            Issue.record("accepted \(file)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func deterministicLogarithmAndExponentialMatchTheCLibrary() {
        var random = SeededRandom(seed: 1)
        for _ in 0..<10_000 {
            let x = random.unitOpen() * 1_000
            #expect(abs(DeterministicMath.ln(x) - log(x)) <= 1e-12 * max(1, abs(log(x))))
            let y = random.unitOpen() * 40 - 20
            #expect(abs(DeterministicMath.exp(y) - Glibc.exp(y)) <= 1e-13 * Glibc.exp(y))
        }
    }

    @Test func delaysStayWithinTheirBoundsAndAroundTheirMedian() {
        var random = SeededRandom(seed: 2)
        let delay = Delay(spec: .logNormal(median: 1_000, sigma: 0.6, 300, 10_000))
        var samples = (0..<10_001).map { _ in delay.draw(&random) }
        samples.sort()
        #expect(samples.first! >= 300 && samples.last! <= 10_000)
        #expect(abs(samples[5_000] - 1_000) < 60)
    }

    @Test func envelopeTimestampsMatchTheContractFormat() {
        var writer = EnvelopeWriter()
        var random = SeededRandom(seed: 3)
        for _ in 0..<2_000 {
            let timestamp = Timestamp(millisecondsSinceEpoch: random.int64(in: -5_000_000_000_000...5_000_000_000_000))
            var bytes: [UInt8] = []
            writer.writeTimestamp(timestamp, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == timestamp.description)
        }
    }

    @Test func hexNeverHoldsARunOfDigitsThatCouldBeACardNumber() {
        var random = SeededRandom(seed: 4)
        for _ in 0..<2_000 {
            var run = 0
            for byte in random.hex(64).utf8 {
                run = byte <= UInt8(ascii: "9") ? run + 1 : 0
                #expect(run <= 12)
            }
        }
    }
}

/// Event ids: random v4 by default, time-ordered v7 when the profile says so.
@Suite("Event ids")
struct EventIDTests {
    @Test func versionSevenIDsSortByTheirMilliseconds() {
        var random = SeededRandom(seed: 5)
        var previous = ""
        for step in 0..<1_000 {
            let id = random.uuidV7(milliseconds: 1_795_939_200_000 + Int64(step) * 7)
            #expect(UUIDText.isUUID(id))
            #expect(Array(id.utf8)[14] == UInt8(ascii: "7"))
            #expect(id > previous)
            previous = id
        }
    }

    @Test func theDefaultProfileWritesRandomVersionFourIDs() throws {
        let events = try SimulationSupport.events(seed: 9, transactions: 50, digitizations: 20)
        #expect(events.allSatisfy { Array($0.id.utf8)[14] == UInt8(ascii: "4") })
    }

    @Test func aProfileMayAskForTimeOrderedIDs() throws {
        let profile = try WorkloadProfile.realistic.merging([
            ProfileFigure("traffic.timeOrderedEventIDs", .percent(100), source: "test")
        ])
        let events = try SimulationSupport.events(seed: 9, transactions: 50, digitizations: 20, profile: profile)
        #expect(events.allSatisfy { Array($0.id.utf8)[14] == UInt8(ascii: "7") })
        // Stream ids stay random v4: the SDK chooses them.
        #expect(events.allSatisfy { Array($0.stream.utf8)[$0.stream.hasPrefix("3ds-") ? 18 : 19] == UInt8(ascii: "4") })
    }
}
