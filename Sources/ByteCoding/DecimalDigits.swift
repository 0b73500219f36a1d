/// The decimal digits of an unsigned number, as bytes: message ids are written into answers
/// and log entries on every send, and `String(_:)` would make a string only to be copied.
public enum DecimalDigits {
    /// Calls `body` with the ASCII decimal digits of `number`, the bytes of `String(number)`:
    /// no leading zeros, and `0` keeps its one digit. The bytes live only during the call.
    @inlinable
    public static func withDigits<Result>(
        of number: UInt64, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        // Twenty digits at most, written from the end.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return try withUnsafeMutableBytes(of: &digits) { room in
            var start = 20
            var rest = number
            repeat {
                start -= 1
                room[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            return try body(UnsafeRawBufferPointer(rebasing: room[start..<20]).bindMemory(to: UInt8.self))
        }
    }

    /// `String(number)`, made from `withDigits(of:_:)`.
    @inlinable
    public static func string(of number: UInt64) -> String {
        withDigits(of: number) { String(decoding: $0, as: UTF8.self) }
    }
}
