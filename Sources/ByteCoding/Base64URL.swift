/// Base64url (RFC 4648 §5): the one encoder and decoder of the project, for JWT segments and the
/// `HTTP2-Settings` header.
public enum Base64URL {
    /// Decodes base64url text.
    ///
    /// Strict by default, as a JWT segment must be: only the URL-safe alphabet, no `=` padding, no
    /// length that leaves a lone character, and the unused low bits of the last character zero (so
    /// that one byte string has exactly one spelling). `lenient` also takes the standard alphabet's
    /// `+` and `/`, skips `=` wherever it stands and ignores leftover bits, as the `HTTP2-Settings`
    /// header is decoded. Returns nil for anything else.
    public static func decode(_ text: some StringProtocol, lenient: Bool = false) -> [UInt8]? {
        decode(bytes: text.utf8, lenient: lenient)
    }

    /// Decodes base64url text given as its UTF-8 bytes (the rules of `decode(_:lenient:)`).
    /// `@inlinable`: access tokens are decoded on every FCM send, and the generic decoder called
    /// across the module boundary would walk its input through protocol witnesses.
    @inlinable
    public static func decode(bytes text: some Collection<UInt8>, lenient: Bool = false) -> [UInt8]? {
        if !lenient && text.count % 4 == 1 { return nil }
        var bits: UInt32 = 0
        var bitCount = 0
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        for byte in text {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "+") where lenient: value = 62
            case UInt8(ascii: "/") where lenient: value = 63
            case UInt8(ascii: "=") where lenient: continue
            default: return nil
            }
            bits = bits << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: bits >> UInt32(bitCount)))
            }
        }
        if !lenient && bits & ((1 << UInt32(bitCount)) - 1) != 0 { return nil }
        return output
    }

    /// Encodes bytes as base64url without padding (the form JWTs use).
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var bits: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            bits = bits << 8 | UInt32(byte)
            bitCount += 8
            while bitCount >= 6 {
                bitCount -= 6
                output.append(alphabet[Int(bits >> UInt32(bitCount) & 63)])
            }
        }
        if bitCount > 0 {
            output.append(alphabet[Int(bits << UInt32(6 - bitCount) & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
