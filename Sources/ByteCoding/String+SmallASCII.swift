extension String {
    /// The string of `count` bytes at `start` in `bytes`, when the reader knows them to be ASCII
    /// and there are at most 15 of them: a string the standard library keeps inline.
    ///
    /// Most strings of a request (map keys and values, payload keys) are that short, and
    /// `String(decoding:as:)` spends more on them, checking the UTF-8 again and copying through
    /// a generic path, than the reader spends finding them. This writes the inline form
    /// directly: the bytes, zero padding, and the count with the "small, ASCII" flags in the top
    /// byte. It is used only where `smallASCIIFormHolds` found that form to be exactly what the
    /// standard library makes (`JSONReader` asks once per body, not per string); elsewhere the
    /// reader uses `String(decoding:as:)`.
    @inline(__always)
    @usableFromInline
    static func uncheckedSmallASCII(_ bytes: UnsafeRawBufferPointer, start: Int, count: Int) -> String {
        inline(inlineASCIIBits(bytes, start: start, count: count))
    }

    /// The string of `count` ASCII bytes (at most 15) held in `low` and `high`, the first in the
    /// lowest byte of `low`, zero past the last: as `uncheckedSmallASCII(_:start:count:)`, for a
    /// reader that has the words in hand already.
    @inlinable @inline(__always)
    static func uncheckedSmallASCII(low: UInt64, high: UInt64, count: Int) -> String {
        inline((low, high | (0xE0 | UInt64(truncatingIfNeeded: count)) &<< 56))
    }

    /// The string whose two words are `bits`, which must be an inline form the standard library
    /// makes. Moved out of memory rather than bit-cast: a cast copies, and a copied string is
    /// retained, a call per string even though an inline string holds no reference.
    @inlinable @inline(__always)
    static func inline(_ bits: (UInt64, UInt64)) -> String {
        var bits = bits
        return withUnsafeMutablePointer(to: &bits) {
            $0.withMemoryRebound(to: String.self, capacity: 1) { $0.move() }
        }
    }

    /// `String(value)`, written straight in the inline form for values of up to 15 digits: the
    /// default `apns-expiration` of every send, which `String(_:)` makes through a generic
    /// description.
    public static func decimal(_ value: Int64) -> String {
        guard smallASCIIFormHolds, value >= 0, value < 1_000_000_000_000_000 else { return String(value) }
        // Eight digits at a time, worked out in the lanes of a word: the first digit in the first byte.
        let last = eightDigits(UInt64(value) % 100_000_000)
        let first = UInt64(value) / 100_000_000
        var low: UInt64, high: UInt64, count: UInt64
        if first == 0 {
            // Leading zeros are the low bytes; `0` itself keeps one.
            let zeros = UInt64(Swift.min(WordBytes.firstFlaggedByte(in: last), 7))
            count = 8 - zeros
            low = (last | 0x3030_3030_3030_3030) &>> (8 * zeros)
            high = 0
        } else {
            let digits = eightDigits(first)
            let zeros = UInt64(WordBytes.firstFlaggedByte(in: digits))
            let leading = 8 - zeros
            count = leading + 8
            let lastText = last | 0x3030_3030_3030_3030
            low = (digits | 0x3030_3030_3030_3030) &>> (8 * zeros) | lastText &<< (8 * leading)
            high = lastText &>> (8 * zeros)
        }
        high |= (0xE0 | count) &<< 56
        return inline((low, high))
    }

    /// The eight decimal digits of `value` (below 10⁸), leading zeros included, one a byte
    /// (0 to 9, not ASCII), the first in the lowest byte: divisions by 10⁴, 100 and 10 done in
    /// every lane of the word at once, by multiplying.
    public static func eightDigits(_ value: UInt64) -> UInt64 {
        var lanes = value / 10_000 | (value % 10_000) &<< 32
        let hundreds = ((lanes &* 10_486) &>> 20) & 0x0000_007F_0000_007F
        lanes = hundreds | (lanes &- hundreds &* 100) &<< 16
        let tens = ((lanes &* 103) &>> 10) & 0x000F_000F_000F_000F
        return tens | (lanes &- tens &* 10) &<< 8
    }

    /// `Int64(self)`, read from the two words of the inline form when the string is all
    /// digits: every send reads its `apns-expiration` back, and `Int64(_:)` parses through a
    /// generic path that costs more than the rest of making the delivery. Anything else
    /// (a sign, a longer string, other bytes) goes through `Int64(_:)`.
    public var int64Value: Int64? {
        guard let (low, high, count) = smallASCIIWords, count > 0 else { return Int64(self) }
        // At most 15 digits: no overflow. Eight at a time, each word's digits moved to its top
        // bytes behind ASCII zeros, so that a shorter run reads as the same number.
        func padded(_ word: UInt64, digits: Int) -> UInt64 {
            digits == 8 ? word : word &<< UInt64(8 * (8 - digits)) | 0x3030_3030_3030_3030 &>> UInt64(8 * digits)
        }
        if count <= 8 {
            return Self.eightDigitValue(padded(low, digits: count)) ?? Int64(self)
        }
        guard let first = Self.eightDigitValue(low), let rest = Self.eightDigitValue(padded(high, digits: count - 8))
        else { return Int64(self) }
        var scale: Int64 = 1
        for _ in 0..<(count - 8) { scale &*= 10 }
        return first &* scale &+ rest
    }

    /// The number written by eight ASCII digits, the first in the lowest byte; nil when a byte is
    /// not a digit. Pairs, then fours, then all eight are combined in the lanes of the word.
    private static func eightDigitValue(_ word: UInt64) -> Int64? {
        guard WordBytes.nonDigitFlags(in: word) == 0 else { return nil }
        var lanes = word &- 0x3030_3030_3030_3030
        lanes = lanes &* 10 &+ lanes &>> 8
        lanes =
            ((lanes & 0x0000_00FF_0000_00FF) &* (100 &+ 1_000_000 &<< 32)
                &+ (lanes &>> 16 & 0x0000_00FF_0000_00FF) &* (1 &+ 10_000 &<< 32)) &>> 32
        return Int64(truncatingIfNeeded: lanes)
    }

    /// The bytes of a string kept in the inline ASCII form, the padding after them cleared, and
    /// their count; nil for any other string, or where `smallASCIIFormHolds` is false. Lets the
    /// serializer take a short string's bytes from its two words rather than through a closure.
    var smallASCIIWords: (low: UInt64, high: UInt64, count: Int)? {
        String.smallASCIIFormHolds ? inlineASCIIWords : nil
    }

    /// `smallASCIIWords` without asking `smallASCIIFormHolds`: for callers that have read it
    /// already, and found it true.
    @inlinable @inline(__always)
    var inlineASCIIWords: (low: UInt64, high: UInt64, count: Int)? {
        let (low, high) = unsafeBitCast(self, to: (UInt64, UInt64).self)
        // The top four bits say "immortal, ASCII, small" only in this form: large strings clear
        // the "small" bit, and small ones with non-ASCII bytes the "ASCII" one.
        guard high >> 60 == 0xE else { return nil }
        return (low, high & 0x00FF_FFFF_FFFF_FFFF, Int((high >> 56) & 0xF))
    }

    /// The two words of the inline form of the ASCII bytes, without checks: see `uncheckedSmallASCII`.
    @inline(__always)
    fileprivate static func inlineASCIIBits(
        _ bytes: UnsafeRawBufferPointer, start: Int, count: Int
    ) -> (UInt64, UInt64) {
        // Whole words rather than a loop over the bytes: a word from `start` when the buffer goes
        // on far enough, else one ending where the string ends, shifted down.
        var low: UInt64 = 0, high: UInt64 = 0
        let end = start + count
        if count == 0 {
        } else if count <= 8 && start + 8 <= bytes.count {
            low = bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            if count < 8 { low &= (1 << (8 * UInt64(count))) &- 1 }
        } else if count <= 8 && end >= 8 {
            low = bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) >> (8 * UInt64(8 - count))
        } else if count > 8 {
            low = bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            high = bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) >> (8 * UInt64(16 - count))
        } else {
            for offset in 0..<count { low |= UInt64(bytes[start + offset]) << (8 * UInt64(offset)) }
        }
        high |= (0xE0 | UInt64(count)) << 56
        return (low, high)
    }

    /// Whether `inlineASCIIBits` are, bit for bit, the strings `String(decoding:as:)` makes, for
    /// every length and by each of its ways of reading: true on the 64-bit little-endian
    /// platforms the emulator runs on, checked once rather than assumed.
    @usableFromInline
    static let smallASCIIFormHolds: Bool = {
        guard MemoryLayout<String>.size == 16, MemoryLayout<(UInt64, UInt64)>.size == 16 else { return false }
        let sample = Array("0123456789abcdefghijklmnopqrstuv".utf8)
        return sample.withUnsafeBytes { whole in
            for count in 0...15 {
                // From the start, from the end, and alone in a buffer of its own.
                for (buffer, start) in [(whole, 0), (whole, whole.count - count), (UnsafeRawBufferPointer(rebasing: whole[0..<count]), 0)] {
                    let expected = String(
                        decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<start + count]), as: UTF8.self)
                    // Compared as bits: a string made of wrong bits is not safe even to release.
                    let expectedBits = unsafeBitCast(expected, to: (UInt64, UInt64).self)
                    guard inlineASCIIBits(buffer, start: start, count: count) == expectedBits else { return false }
                }
            }
            return true
        }
    }()
}
