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
        var bytes = [UInt8](repeating: 0, count: Self.textByteCount)
        do {
            var room = bytes.mutableSpan
            writeText(into: &room)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` into the first `textByteCount` bytes of `room`: for a caller that keeps
    /// bytes (a response header), which a `String` would only be copied into.
    public func writeText(into room: inout MutableSpan<UInt8>) {
        precondition(room.count >= Self.textByteCount, "room for a UUID's text")
        var written = 0
        for index in 0..<2 {
            let word = index == 0 ? first : second
            for byteIndex in 0..<8 {
                // Dashes before bytes 4, 6, 8 and 10 of the 16.
                let position = index * 8 + byteIndex
                if position == 4 || position == 6 || position == 8 || position == 10 {
                    room[written] = UInt8(ascii: "-")
                    written += 1
                }
                let byte = UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * byteIndex))
                room[written] = Self.hexDigit(byte >> 4)
                room[written + 1] = Self.hexDigit(byte & 0xF)
                written += 2
            }
        }
    }

    /// The lowercase hex digit of a value below 16.
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") - 10 + value
    }
}
