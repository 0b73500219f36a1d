/// The decimal digits of an unsigned number, worked out eight at a time (`String.eightDigits`)
/// rather than through `String(_:)`, whose generic description costs more than the rest of
/// naming a message.
public enum DecimalDigits {
    /// Calls `body` with the ASCII decimal digits of `number`, the bytes of `String(number)`:
    /// no leading zeros, and `0` keeps its one digit. The bytes live only during the call.
    ///
    /// Inlined into its callers: a message's id is made on every send (docs/ARCHITECTURE.md,
    /// "ByteCoding").
    @inlinable @inline(__always)
    public static func withDigits<Result>(
        of number: UInt64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        // Twenty digits at most, in three words of eight, the first digit in the lowest byte of
        // the first word: the leading word holds at most four of them, behind zeros.
        var words = (
            String.eightDigits(number / 10_000_000_000_000_000) | 0x3030_3030_3030_3030,
            String.eightDigits(number / 100_000_000 % 100_000_000) | 0x3030_3030_3030_3030,
            String.eightDigits(number % 100_000_000) | 0x3030_3030_3030_3030
        )
        return try withUnsafeBytes(of: &words) { text in
            // The first digit that is not a leading zero; `0` itself keeps its last digit.
            let start = text.prefix(23).firstIndex { $0 != UInt8(ascii: "0") } ?? 23
            return try body(UnsafeRawBufferPointer(rebasing: text[start...]).bindMemory(to: UInt8.self))
        }
    }

    /// `String(number)`, made from `withDigits(of:_:)`.
    @inlinable
    public static func string(of number: UInt64) -> String {
        withDigits(of: number) { String(concatenating: $0) }
    }
}
