#if canImport(Glibc)
import Glibc
#endif

/// The machine's real time, the base of the emulator's controllable clock.
public enum WallClock {
    /// Milliseconds since the Unix epoch.
    @Sendable public static func milliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
