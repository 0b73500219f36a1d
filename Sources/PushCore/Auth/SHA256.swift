/// SHA-256 (FIPS 180-4, §6.2) in pure Swift, under `HMACSHA256`: the access tokens' tag is
/// checked on every FCM send, and OpenSSL's HMAC through its providers cost several times more
/// per tag than these two blocks. SignaturesTests compares both with OpenSSL's.
struct SHA256: Sendable {
    /// The hash value so far: H0 to H7.
    private var state: InlineArray<8, UInt32> = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes given that do not yet fill a block.
    private var pending: [UInt8] = []
    /// How many bytes were given in all.
    private var length: UInt64 = 0

    /// The length of a block, which is also HMAC's key block.
    static let blockLength = 64
    /// The length of a digest.
    static let digestLength = 32

    /// The round constants K0 to K63.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// A hash of nothing yet.
    init() {}

    /// The digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(message)
        return hash.finish()
    }

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: [UInt8]) {
        length &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            let taken = min(Self.blockLength - pending.count, bytes.count)
            pending += bytes[0..<taken]
            start = taken
            guard pending.count == Self.blockLength else { return }
            compress(pending, at: 0)
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - start >= Self.blockLength {
            compress(bytes, at: start)
            start += Self.blockLength
        }
        if start < bytes.count { pending += bytes[start...] }
    }

    /// The digest of everything given: the padding (a 1 bit, zeros, the length in bits) hashed in.
    consuming func finish() -> [UInt8] {
        let bits = length &* 8
        var tail = pending
        tail.append(0x80)
        let padded = tail.count <= Self.blockLength - 8 ? Self.blockLength : 2 * Self.blockLength
        tail += repeatElement(0, count: padded - 8 - tail.count)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        for start in stride(from: 0, to: tail.count, by: Self.blockLength) { compress(tail, at: start) }
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestLength)
        for index in 0..<8 {
            let word = state[index]
            digest += [UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                       UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return digest
    }

    /// Hashes the 64-byte block of `bytes` at `start` into the state (§6.2.2).
    private mutating func compress(_ bytes: [UInt8], at start: Int) {
        var schedule = InlineArray<64, UInt32>(repeating: 0)
        for t in 0..<16 {
            let i = start + 4 * t
            schedule[t] = UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
        }
        for t in 16..<64 {
            let w15 = schedule[t - 15], w2 = schedule[t - 2]
            let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ w15 &>> 3
            let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ w2 &>> 10
            schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
        }
        var (a, b, c, d) = (state[0], state[1], state[2], state[3])
        var (e, f, g, h) = (state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ sum1 &+ choice &+ Self.roundConstants[t] &+ schedule[t]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ sum0 &+ majority)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }
}

extension UInt32 {
    /// The bits rotated `count` places to the right (`count` in 1...31).
    /// Masking shifts: the count is known to be in range, and Swift's checked shifts would test it.
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        self &>> count | self &<< (32 - count)
    }
}
