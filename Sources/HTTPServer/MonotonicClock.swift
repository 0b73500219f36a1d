#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time in nanoseconds, for timeouts and durations (never for wall-clock times).
enum MonotonicClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
