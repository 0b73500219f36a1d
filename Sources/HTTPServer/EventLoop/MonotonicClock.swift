#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time in nanoseconds, for timeouts and durations (never for wall-clock times).
///
/// Durations become nanoseconds only through the conversions here, which saturate: a duration
/// too long to count ends at `UInt64.max` (never), instead of trapping the server.
enum MonotonicClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `milliseconds` in nanoseconds: 0 for a negative count, `UInt64.max` past what fits.
    static func nanoseconds(milliseconds: Int) -> UInt64 {
        let (product, overflowed) = UInt64(max(0, milliseconds)).multipliedReportingOverflow(by: 1_000_000)
        return overflowed ? .max : product
    }

    /// `seconds` in nanoseconds: 0 for a negative or NaN count, `UInt64.max` past what fits.
    static func nanoseconds(seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        let nanoseconds = seconds * 1e9
        // `Double(UInt64.max)` rounds up to 2^64, which itself does not fit.
        return nanoseconds >= Double(UInt64.max) ? .max : UInt64(nanoseconds)
    }

    /// The instant `nanoseconds` from now, or `UInt64.max` when that is past what fits.
    static func deadline(after nanoseconds: UInt64) -> UInt64 {
        let (sum, overflowed) = now().addingReportingOverflow(nanoseconds)
        return overflowed ? .max : sum
    }
}
