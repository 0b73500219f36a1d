/// A random (version 4) UUID, used for generated `apns-id`s: kept as its 128 bits, and
/// written in canonical lowercase form only when `text` is read.
public struct RandomUUID: Sendable, Equatable {
    private let first: UInt64
    private let second: UInt64

    /// A new UUID from two draws of `random`.
    public init(using random: inout some RandomNumberGenerator) {
        let high = random.next()
        let low = random.next()
        // Version 4 in the 13th hex digit, variant 10 in the 17th.
        first = (high & ~0xF000) | 0x4000
        second = (low & ~(0xC << 60)) | (0x8 << 60)
    }

    /// The length of `text` in bytes.
    public static let textByteCount = 36

    /// The canonical lowercase form, such as `6f1c2a4e-9b3d-4c1e-8f00-1a2b3c4d5e6f`.
    public var text: String {
        String(unsafeUninitializedCapacity: Self.textByteCount) { text in
            writeText(into: text)
            return Self.textByteCount
        }
    }

    /// Writes `text` into the first `textByteCount` bytes of `buffer`: for a caller that keeps
    /// bytes (a response header), which a `String` would only be copied into.
    public func writeText(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(buffer.count >= Self.textByteCount, "room for a UUID's text")
        // Two hex digits per byte from a table, the dashes at fixed places.
        let hexPairs: StaticString = """
            000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
            202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\
            404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
            606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f\
            808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f\
            a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
            c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf\
            e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
            """
        let pairs = hexPairs.utf8Start
        var written = 0
        for index in 0..<2 {
            let word = index == 0 ? first : second
            for byteIndex in 0..<8 {
                // Dashes before bytes 4, 6, 8 and 10 of the 16.
                let position = index * 8 + byteIndex
                if position == 4 || position == 6 || position == 8 || position == 10 {
                    buffer[written] = UInt8(ascii: "-")
                    written += 1
                }
                let byte = Int(truncatingIfNeeded: word >> UInt64(56 - 8 * byteIndex)) & 0xFF
                buffer[written] = pairs[2 * byte]
                buffer[written + 1] = pairs[2 * byte + 1]
                written += 2
            }
        }
    }
}
