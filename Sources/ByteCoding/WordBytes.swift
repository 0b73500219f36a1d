/// Eight bytes read as one little-endian word and tested all at once: the readers' way of
/// skipping over bytes that need no look.
///
/// A test flags a byte by setting its top bit (0x80). The tests built on subtraction can flag
/// a byte wrongly, but only above one they flag rightly (a borrow runs upwards), so the lowest
/// byte flagged, `firstFlaggedByte(in:)`, is always exact.
public enum WordBytes {
    /// Whether `first` and `second` hold the same bytes, compared a word at a time: for short keys
    /// and names compared on every request, where a generic comparison costs several instructions
    /// a byte.
    @inlinable
    public static func equal(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        let count = first.count
        guard count == second.count else { return false }
        var offset = 0
        while offset &+ 8 <= count {
            let word = first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard word == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset &+= 8
        }
        while offset < count {
            guard first[offset] == second[offset] else { return false }
            offset &+= 1
        }
        return true
    }

    /// 0x01 in every byte.
    @inlinable public static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// 0x80, the flag, in every byte.
    @inlinable public static var topBits: UInt64 { 0x8080_8080_8080_8080 }

    /// The position (0 to 7, the first byte in memory 0) of the lowest non-zero byte of `flags`;
    /// 8 when `flags` is zero. With flags from the tests below: the first byte that matched.
    @inlinable @inline(__always)
    public static func firstFlaggedByte(in flags: UInt64) -> Int {
        flags.trailingZeroBitCount &>> 3
    }

    /// The flag of each byte of `word` equal to `byte`.
    @inlinable @inline(__always)
    public static func flags(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        // A byte equal to `byte` is zero after the xor, and the classic zero-byte test finds it.
        let matched = word ^ (ones &* UInt64(byte))
        return (matched &- ones) & ~matched & topBits
    }

    /// The flag of each byte of `word` below `bound`, for a bound of at most 0x80.
    @inlinable @inline(__always)
    public static func flags(below bound: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(bound)) & ~word & topBits
    }

    /// The flag of each byte of `word` that is not ASCII (0x80 and above): exact for every byte.
    @inlinable @inline(__always)
    public static func nonASCIIFlags(in word: UInt64) -> UInt64 {
        word & topBits
    }

    /// The top bit of each byte of `word` that is not an ASCII digit (for ASCII bytes): a byte
    /// below `0` borrows into its top bit, one above `9` carries into it. A borrow runs upwards,
    /// so the lowest byte flagged is exactly the first that is not a digit.
    @inlinable @inline(__always)
    public static func nonDigitFlags(in word: UInt64) -> UInt64 {
        let lanes = word &- 0x3030_3030_3030_3030
        return (lanes | (lanes &+ 0x7676_7676_7676_7676)) & topBits
    }

    /// The first `count` bytes (0 to 8) of `word`, the rest cleared.
    @inlinable @inline(__always)
    public static func firstBytes(of word: UInt64, count: Int) -> UInt64 {
        count >= 8 ? word : word & ((1 &<< (UInt64(truncatingIfNeeded: count) &* 8)) &- 1)
    }
}
