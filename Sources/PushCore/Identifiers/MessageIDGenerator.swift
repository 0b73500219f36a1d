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

    /// The next id.
    public mutating func make() -> String {
        defer { next += 1 }
        return Self.withDigits(of: next) { digits in
            String(unsafeUninitializedCapacity: digits.count) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(digits))
                return digits.count
            }
        }
    }

    /// The next id's message name in `project` (`MessageName.make`), and how many bytes (all
    /// digits) of its end are the id. A send keeps only the name: the id, read back from its end
    /// where needed, is not made as a string of its own.
    mutating func makeName(project: String) -> (name: String, idByteCount: Int) {
        defer { next += 1 }
        return Self.withDigits(of: next) { digits in
            (MessageName.make(project: project, messageIDBytes: digits), digits.count)
        }
    }

    /// Calls `body` with the decimal digits of `number`: worked out eight at a time
    /// (`String.eightDigits`) into three words, leading zeros dropped, rather than through
    /// `String(_:)`.
    private static func withDigits<Result>(
        of number: UInt64, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var words = (
            String.eightDigits(number / 10_000_000_000_000_000) | 0x3030_3030_3030_3030,
            String.eightDigits(number / 100_000_000 % 100_000_000) | 0x3030_3030_3030_3030,
            String.eightDigits(number % 100_000_000) | 0x3030_3030_3030_3030
        )
        return withUnsafeBytes(of: &words) { text in
            // The first digit that is not a leading zero; `0` itself keeps its one digit.
            let start = text.prefix(23).firstIndex { $0 != UInt8(ascii: "0") } ?? 23
            return body(UnsafeRawBufferPointer(rebasing: text[start...]).bindMemory(to: UInt8.self))
        }
    }
}
