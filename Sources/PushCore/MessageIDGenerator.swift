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
        // Every send makes one: the digits are worked out eight at a time (`String.eightDigits`)
        // into three words, leading zeros dropped, rather than through `String(_:)`.
        var words = (
            String.eightDigits(next / 10_000_000_000_000_000) | 0x3030_3030_3030_3030,
            String.eightDigits(next / 100_000_000 % 100_000_000) | 0x3030_3030_3030_3030,
            String.eightDigits(next % 100_000_000) | 0x3030_3030_3030_3030
        )
        return withUnsafeBytes(of: &words) { text in
            // The first digit that is not a leading zero; `0` itself keeps its one digit.
            let start = text.prefix(23).firstIndex { $0 != UInt8(ascii: "0") } ?? 23
            return String(unsafeUninitializedCapacity: 24 - start) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: text[start...]))
                return 24 - start
            }
        }
    }
}
