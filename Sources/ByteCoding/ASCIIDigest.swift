/// A 64-bit digest of ASCII byte strings, for hash tables keyed by long ASCII strings (registration
/// tokens): `String` feeds every byte through SipHash, which costs more than the rest of a lookup.
/// The digest reads the bytes a word at a time; a `Hasher` then needs to mix only the digest.
/// Not a keyed hash: keys chosen to collide slow their own lookups.
public enum ASCIIDigest {
    /// The digest of every string with a byte that is not ASCII (an ASCII one may have it too,
    /// by chance): such strings can be equal as `String`s with different bytes.
    @inlinable
    public static var nonASCII: UInt64 { 0 }

    /// The digest of `text`'s UTF-8 bytes, read in place (a copy only for a string without
    /// contiguous storage): equal ASCII strings give equal digests, a non-ASCII one `nonASCII`.
    public static func digest(of text: String) -> UInt64 {
        text.utf8.withContiguousStorageIfAvailable { digest(of: UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes { digest(of: $0) }
    }

    /// Each word xor'ed in, multiplied and rotated, then the whole mixed once (the finalizer of
    /// SplitMix64): a few instructions a word, and every byte changes every bit of the result.
    public static func digest(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var state = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        // Every byte or'ed in: a set top bit means a non-ASCII string.
        var highBits: UInt64 = 0
        // Two words a round, each through a multiplication of its own: half the rounds, and the
        // two chains run side by side.
        var other: UInt64 = 0x94D0_49BB_1331_11EB
        var offset = 0
        while offset &+ 16 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let next = bytes.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
            highBits |= word | next
            state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
            state = state &<< 31 | state &>> 33
            other = (other ^ next) &* 0xBF58_476D_1CE4_E5B9
            other = other &<< 29 | other &>> 35
            offset &+= 16
        }
        state ^= other
        if offset &+ 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            highBits |= word
            state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
            state = state &<< 31 | state &>> 33
            offset &+= 8
        }
        if offset < count {
            // The last word overlaps the ones before when there are 8 bytes or more: still a
            // function of the bytes alone, without a loop over the rest.
            var last: UInt64 = 0
            if count >= 8 {
                last = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                for index in 0..<count { last |= UInt64(bytes[index]) &<< (8 * UInt64(index)) }
            }
            highBits |= last
            state = (state ^ last) &* 0x9E37_79B9_7F4A_7C15
        }
        guard WordBytes.nonASCIIFlags(in: highBits) == 0 else { return nonASCII }
        return mix(state)
    }

    /// The finalizer of SplitMix64: every input bit changes about half of the output bits.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var value = value
        value = (value ^ (value &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value &>> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value &>> 31)
    }
}
