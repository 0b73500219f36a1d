/// The decimal digits of an unsigned number, worked out eight at a time (`eightDigits`)
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
        // the first word: the leading word holds at most four of them, behind zeros. The first
        // digit that is not a leading zero is the lowest non-zero byte of the digits (0 to 9)
        // before they are made ASCII; `0` itself keeps its last digit.
        let digits = (
            eightDigits(number / 10_000_000_000_000_000),
            eightDigits(number / 100_000_000 % 100_000_000),
            eightDigits(number % 100_000_000)
        )
        let start: Int
        if digits.0 != 0 {
            start = WordBytes.firstFlaggedByte(in: digits.0)
        } else if digits.1 != 0 {
            start = 8 + WordBytes.firstFlaggedByte(in: digits.1)
        } else {
            start = 16 + min(WordBytes.firstFlaggedByte(in: digits.2), 7)
        }
        var words = (digits.0 | 0x3030_3030_3030_3030, digits.1 | 0x3030_3030_3030_3030, digits.2 | 0x3030_3030_3030_3030)
        return try withUnsafeBytes(of: &words) { text in
            try body(UnsafeRawBufferPointer(rebasing: text[start...]).bindMemory(to: UInt8.self))
        }
    }

    /// `String(number)`, made from `withDigits(of:_:)`.
    @inlinable
    public static func string(of number: UInt64) -> String {
        withDigits(of: number) { String(decoding: $0, as: UTF8.self) }
    }

    /// The eight decimal digits of `value` (below 10⁸), leading zeros included, one a byte
    /// (0 to 9, not ASCII), the first in the lowest byte: divisions by 10⁴, 100 and 10 done in
    /// every lane of the word at once, by multiplying.
    @inlinable
    public static func eightDigits(_ value: UInt64) -> UInt64 {
        var lanes = value / 10_000 | (value % 10_000) &<< 32
        let hundreds = ((lanes &* 10_486) &>> 20) & 0x0000_007F_0000_007F
        lanes = hundreds | (lanes &- hundreds &* 100) &<< 16
        let tens = ((lanes &* 103) &>> 10) & 0x000F_000F_000F_000F
        return tens | (lanes &- tens &* 10) &<< 8
    }
}
