/// Random (version 4) UUIDs in canonical lowercase form, used for generated `apns-id`s.
public enum RandomUUID {
    /// A new UUID such as `6f1c2a4e-9b3d-4c1e-8f00-1a2b3c4d5e6f`.
    public static func make(using random: inout some RandomNumberGenerator) -> String {
        let high = random.next()
        let low = random.next()
        // Version 4 in the 13th hex digit, variant 10 in the 17th.
        let first = (high & ~0xF000) | 0x4000
        let second = (low & ~(0xC << 60)) | (0x8 << 60)
        let hex: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { text in
            var written = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    text[written] = UInt8(ascii: "-")
                    written += 1
                }
                let word = nibble < 16 ? first : second
                let value = Int((word >> UInt64(60 - 4 * (nibble % 16))) & 0xF)
                text[written] = hex.utf8Start[value]
                written += 1
            }
            return written
        }
    }
}
