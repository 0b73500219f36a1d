/// A registration token as a dictionary key, hashed through a 64-bit digest of its bytes.
///
/// Every send to a token looks its device up, and `String` feeds all of a token's bytes
/// (~80) through SipHash: that cost more than the rest of the lookup. The digest reads the
/// bytes a word at a time; the `Hasher` then mixes only the digest, still with its per-process
/// seed. Equality is on the whole token, so a dictionary behaves as if keyed by the string.
/// Tokens are not secret and the emulator is local: keys chosen to collide could slow their
/// own lookups, nothing more.
///
/// `String` equality is canonical equivalence, under which a few non-ASCII strings equal ASCII
/// ones (the Kelvin sign equals `K`), with different bytes: a non-ASCII token gets the digest
/// `unhashed`, and `DeviceTable` finds it by comparing strings.
struct TokenKey: Hashable, Sendable {
    /// The token itself.
    let token: String
    /// The digest of the token's bytes; `unhashed` for a non-ASCII token.
    let digest: UInt64

    /// The digest of every non-ASCII token (an ASCII one may have it too, by chance).
    static let unhashed: UInt64 = 0

    init(_ token: String) {
        self.token = token
        digest = Self.digest(of: token)
    }

    static func == (lhs: TokenKey, rhs: TokenKey) -> Bool {
        lhs.digest == rhs.digest && lhs.token == rhs.token
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    /// What `Dictionary` asks for: the digest mixed with the dictionary's seed directly, which
    /// costs less than starting and finishing a `Hasher` for one word, and still differs per
    /// process and per dictionary as the `Hasher`'s would.
    func _rawHashValue(seed: Int) -> Int {
        Int(truncatingIfNeeded: Self.mix(digest ^ UInt64(truncatingIfNeeded: seed)))
    }

    /// A digest of the UTF-8 bytes of `token`: equal ASCII strings give equal digests;
    /// `unhashed` for a non-ASCII one.
    static func digest(of token: String) -> UInt64 {
        token.utf8.withContiguousStorageIfAvailable { digest(of: UnsafeRawBufferPointer($0)) }
            ?? Array(token.utf8).withUnsafeBytes { digest(of: $0) }
    }

    /// Each word xor'ed in, multiplied and rotated, then the whole mixed once (the finalizer of
    /// SplitMix64): a few instructions a word, and every byte changes every bit of the result.
    static func digest(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var state = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        // Every byte or'ed in: a set top bit means a non-ASCII token.
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
        guard highBits & 0x8080_8080_8080_8080 == 0 else { return unhashed }
        return mix(state)
    }

    /// The finalizer of SplitMix64: every input bit changes about half of the output bits.
    static func mix(_ value: UInt64) -> UInt64 {
        var value = value
        value = (value ^ (value &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value &>> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value &>> 31)
    }
}
