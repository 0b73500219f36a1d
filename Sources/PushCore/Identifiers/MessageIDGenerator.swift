import ByteCoding

/// Issues FCM message ids: decimal, unique and increasing, 19 digits like the real ones
/// (`6810356097230477954`).
public struct MessageIDGenerator: Sendable {
    private var next: UInt64

    /// Starts from a seed taken from wall time (milliseconds × 10⁶), so ids keep increasing
    /// across restarts unless more than a million messages were sent per millisecond.
    public init(wallTimeMilliseconds: Int64) {
        next = UInt64(max(wallTimeMilliseconds, 1)) &* 1_000_000
    }

    /// The number the next id will be (a state snapshot keeps it).
    var upcoming: UInt64 { next }

    /// Moves on to `number` unless ids have passed it already: an imported state's ids are never
    /// issued again, and an import never makes ids go back.
    mutating func skip(to number: UInt64) {
        next = max(next, number)
    }

    /// The next id.
    public mutating func make() -> String {
        defer { next += 1 }
        return DecimalDigits.string(of: next)
    }

    /// The next id's message name in `project`.
    mutating func makeName(project: String) -> MessageName {
        defer { next += 1 }
        return MessageName(project: project, id: next)
    }
}
