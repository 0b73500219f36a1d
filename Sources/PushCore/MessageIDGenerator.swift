/// Issues FCM message ids: decimal, unique and increasing, 19 digits like the real ones
/// (`6810356097230477954`).
public struct MessageIDGenerator: Sendable {
    private var next: UInt64

    /// Starts from a seed taken from wall time (milliseconds × 10⁶), so ids keep increasing
    /// across restarts unless more than a million messages were sent per millisecond.
    public init(wallTimeMilliseconds: Int64) {
        next = UInt64(max(wallTimeMilliseconds, 1)) &* 1_000_000
    }

    /// The next id.
    public mutating func make() -> String {
        defer { next += 1 }
        // Every send makes one: the digits are written directly rather than through `String(_:)`.
        var value = next
        var digits = 1
        while value >= 10 {
            value /= 10
            digits += 1
        }
        return String(unsafeUninitializedCapacity: digits) { buffer in
            var rest = next
            for index in stride(from: digits - 1, through: 0, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return digits
        }
    }
}
