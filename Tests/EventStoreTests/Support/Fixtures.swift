import EventStore
import JournalCore

/// Deterministic test data.
enum Fixture {
    /// The n-th test UUID (lowercase, canonical).
    static func uuid(_ n: Int, prefix: String = "00000000") -> String {
        let digits = Array("0123456789abcdef")
        var tail = ""
        var value = UInt64(n)
        for _ in 0..<12 {
            tail = String(digits[Int(value & 0xF)]) + tail
            value >>= 4
        }
        return "\(prefix)-0000-4000-8000-\(tail)"
    }

    static func stream(_ n: Int, category: String = "3ds") -> StreamName {
        try! StreamName("\(category)-\(uuid(n, prefix: "5e000000"))")
    }

    static let time = Timestamp("2026-11-29T09:00:00.000Z")!

    /// Appends 40 events to 7 streams, of two types, every fifth with a meta object (the
    /// scan's and the lent read's fixture).
    static func appendMixedLog(to store: any EventStore) throws {
        for n in 0..<40 {
            try store.append(
                [
                    event(
                        n, type: n % 3 == 0 ? "ChallengeStarted" : "ChallengeRequestSent",
                        meta: n % 5 == 0 ? #"{"m":1}"# : nil)
                ],
                to: stream(n % 7), expectedVersion: .any)
        }
    }

    /// An event with a small JSON payload that varies with `n`.
    static func event(
        _ n: Int, type: String = "ChallengeStarted", data: String? = nil, meta: String? = nil,
        recordedAt: Timestamp? = nil
    ) -> ProposedEvent {
        let json = data ?? #"{"attempt":\#(n),"acsTransID":"\#(uuid(n, prefix: "acacacac"))","channel":"app"}"#
        return ProposedEvent(
            id: uuid(n), type: type, occurredAt: time.adding(milliseconds: Int64(n)),
            data: Array(json.utf8), meta: meta.map { Array($0.utf8) }, recordedAt: recordedAt)
    }

    static func events(_ range: Range<Int>, type: String = "ChallengeStarted") -> [ProposedEvent] {
        range.map { event($0, type: type) }
    }
}

extension RecordedEvent {
    var dataText: String { String(decoding: data, as: UTF8.self) }
}
