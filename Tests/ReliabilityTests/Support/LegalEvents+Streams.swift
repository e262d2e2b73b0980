extension LegalEvents {
    /// At least `count` legal events over fresh streams numbered from `firstStream` (so files
    /// built one after another never share a stream), the four journeys in turn.
    mutating func events(atLeast count: Int, firstStream: Int) -> (lines: [String], nextStream: Int) {
        var lines: [String] = []
        lines.reserveCapacity(count + 9)
        var n = firstStream
        while lines.count < count {
            switch n % 4 {
            case 0: lines += challenged(n)
            case 1: lines += frictionless(n)
            case 2: lines += yellowOTP(n)
            default: lines += green(n)
            }
            n += 1
        }
        return (lines, n)
    }

    /// The first three events of a frictionless 3DS transaction, left open (no
    /// `TransactionClosed`): versions 0–2, so an appender expecting version 2 may close it.
    mutating func openFrictionless(_ n: Int) -> [String] {
        Array(frictionless(n).prefix(3))
    }
}
