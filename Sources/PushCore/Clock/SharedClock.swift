import Synchronization

/// The emulator's clock as every request reads it: wall time plus an offset kept in an atomic,
/// so that reading the time (every send does) takes no lock. `EmulatorClock` is its value, as
/// `GET /emulator/v1/clock` shows it.
final class SharedClock: Sendable {
    let wallTime: @Sendable () -> Int64
    private let offsetSeconds = Atomic<Int64>(0)

    init(wallTime: @escaping @Sendable () -> Int64) {
        self.wallTime = wallTime
    }

    /// The clock's current value.
    var value: EmulatorClock {
        EmulatorClock(wallTime: wallTime, offsetSeconds: offsetSeconds.load(ordering: .relaxed))
    }

    /// The emulator's current time.
    var now: Timestamp { value.now }

    /// Moves the clock by `seconds` (saturating, as `EmulatorClock.advance`); returns the new time.
    func advance(seconds: Int64) -> Timestamp {
        var current = offsetSeconds.load(ordering: .relaxed)
        while true {
            var clock = EmulatorClock(wallTime: wallTime, offsetSeconds: current)
            clock.advance(seconds: seconds)
            let (exchanged, found) = offsetSeconds.weakCompareExchange(
                expected: current, desired: clock.offsetSeconds, ordering: .relaxed)
            if exchanged { return clock.now }
            current = found
        }
    }

    /// Sets the offset (`resetClock` sets 0; a state import the snapshot's).
    func set(offsetSeconds seconds: Int64) {
        offsetSeconds.store(seconds, ordering: .relaxed)
    }
}
