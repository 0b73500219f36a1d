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
    static func uncheckedSmallASCII(_ bytes: UnsafeRawBufferPointer, start: Int, count: Int) -> String {
        var bits = inlineASCIIBits(bytes, start: start, count: count)
        // Moved out of memory rather than bit-cast: a cast copies, and a copied string is
        // retained, a call per string even though an inline string holds no reference.
        return withUnsafeMutablePointer(to: &bits) {
            $0.withMemoryRebound(to: String.self, capacity: 1) { $0.move() }
        }
    }

    /// `String(value)`, written straight in the inline form for values of up to 15 digits: the
    /// default `apns-expiration` of every send, which `String(_:)` makes through a generic
    /// description.
    static func decimal(_ value: Int64) -> String {
        guard smallASCIIFormHolds, value >= 0, value < 1_000_000_000_000_000 else { return String(value) }
        // Last digit first, each shifted in below the ones before: the first digit ends up in
        // the first byte.
        var rest = UInt64(value), low: UInt64 = 0, high: UInt64 = 0, count: UInt64 = 0
        repeat {
            high = high &<< 8 | low &>> 56
            low = low &<< 8 | (0x30 &+ rest % 10)
            rest /= 10
            count &+= 1
        } while rest != 0
        high |= (0xE0 | count) &<< 56
        return unsafeBitCast((low, high), to: String.self)
    }

    /// `Int64(self)`, read from the two words of the inline form when the string is all
    /// digits: every send reads its `apns-expiration` back, and `Int64(_:)` parses through a
    /// generic path that costs more than the rest of making the delivery. Anything else
    /// (a sign, a longer string, other bytes) goes through `Int64(_:)`.
    var int64Value: Int64? {
        guard let (low, high, count) = smallASCIIWords, count > 0 else { return Int64(self) }
        // At most 15 digits: no overflow.
        var value: Int64 = 0
        for index in 0..<count {
            let word = index < 8 ? low : high
            let digit = UInt8(truncatingIfNeeded: word &>> UInt64(8 * (index & 7))) &- 0x30
            guard digit < 10 else { return Int64(self) }
            value = value &* 10 &+ Int64(digit)
        }
        return value
    }

    /// The bytes of a string kept in the inline ASCII form, the padding after them cleared, and
    /// their count; nil for any other string, or where `smallASCIIFormHolds` is false. Lets the
    /// serializer take a short string's bytes from its two words rather than through a closure.
    var smallASCIIWords: (low: UInt64, high: UInt64, count: Int)? {
        guard String.smallASCIIFormHolds else { return nil }
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
