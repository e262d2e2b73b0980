#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's clocks: the wall clock, the default of the store and the commands (tests
/// inject their own), and the monotonic clock, for durations only (timeouts, access-log
/// durations, progress rates), never for a time of day.
package enum SystemClock {
    @Sendable package static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(millisecondsSinceEpoch: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }

    @Sendable package static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// CPU time this process has used so far, all threads (`CLOCK_PROCESS_CPUTIME_ID`), for
    /// measurements on a shared machine.
    package static func processCPUNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Blocks the calling thread for `nanoseconds` (`nanosleep`; a signal may end it early).
    package static func sleep(nanoseconds: Int64) {
        guard nanoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        _ = nanosleep(&request, nil)
    }
}
