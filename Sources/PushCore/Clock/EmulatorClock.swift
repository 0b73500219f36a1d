/// The emulator's controllable clock: wall time from an injected source plus an offset that
/// `clock:advance` moves forward and `clock:reset` clears.
///
/// Every rule (TTL, offline limit, JWT expiry, `apns-expiration`) reads this clock, so tests can
/// jump a month ahead without waiting.
public struct EmulatorClock: Sendable {
    /// Where wall time comes from: milliseconds since the epoch (the CLI passes the system time).
    public let wallTime: @Sendable () -> Int64
    /// How far the emulator's time runs ahead of (or behind) wall time, in seconds.
    public private(set) var offsetSeconds: Int64 = 0

    /// Makes a clock that reads `wallTime` with no offset.
    public init(wallTime: @escaping @Sendable () -> Int64) {
        self.wallTime = wallTime
    }

    /// A clock already `offsetSeconds` ahead of wall time.
    init(wallTime: @escaping @Sendable () -> Int64, offsetSeconds: Int64) {
        self.wallTime = wallTime
        self.offsetSeconds = offsetSeconds
    }

    /// The emulator's current time: wall time plus the offset.
    public var now: Timestamp {
        Timestamp(millisecondsSinceEpoch: wallTime()).adding(seconds: offsetSeconds)
    }

    /// Moves the clock by `seconds` (negative values move it back).
    public mutating func advance(seconds: Int64) {
        // Saturating: `now` is held within what RFC 3339 can write anyway.
        offsetSeconds = offsetSeconds.addingReportingOverflow(seconds).overflow
            ? (seconds < 0 ? .min : .max) : offsetSeconds + seconds
    }

    /// Returns the clock to wall time.
    public mutating func reset() {
        offsetSeconds = 0
    }
}
