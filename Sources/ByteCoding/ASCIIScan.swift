/// Byte-class checks of a string or of bytes (device tokens, header names and values), written as
/// loops without an early exit, which the compiler turns into vector code: each APNs push runs
/// several over its device token of 64 or more bytes, and the per-byte closures of
/// `contains(where:)` and `allSatisfy` cost 8 to 12 instructions a byte, these loops under 2
/// (docs/performance.md).
/// `ASCIIScanTests` and `Tests/Fuzz/ASCIIScanFuzz.swift` compare them with the plain definitions.
public enum ASCIIScan {
    /// Whether `text` has a byte from A to Z.
    public static func hasUppercase(_ text: String) -> Bool {
        withBytes(of: text) { bytes in
            var found: UInt8 = 0
            for byte in bytes { found |= byte &- UInt8(ascii: "A") < 26 ? 1 : 0 }
            return found != 0
        }
    }

    /// Whether every byte of `text` is a hex digit, in either case.
    public static func isHex(_ text: String) -> Bool {
        withBytes(of: text) { isHex(UnsafeRawBufferPointer($0)) }
    }

    /// Whether every one of `bytes` is a hex digit, in either case.
    public static func isHex(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var other: UInt8 = 0
        for byte in bytes {
            let digit: UInt8 = byte &- UInt8(ascii: "0") < 10 ? 1 : 0
            // `| 0x20` makes A to F a to f and leaves a to f as they are.
            let letter: UInt8 = (byte | 0x20) &- UInt8(ascii: "a") < 6 ? 1 : 0
            other |= (digit | letter) ^ 1
        }
        return other == 0
    }

    /// Whether every one of `bytes` may stand in an HTTP field value (RFC 9110 §5.5): visible
    /// characters, bytes from 0x80 up (obs-text), space and horizontal tab; no other control
    /// character and no DEL. The HTTP/1 parser checks every header value with it: a byte-at-a-time
    /// loop with an early exit cost about 8 instructions a byte.
    public static func isFieldValue(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var control: UInt8 = 0
        for byte in bytes {
            let belowSpace: UInt8 = byte < 0x20 ? 1 : 0
            let tab: UInt8 = byte == 0x09 ? 1 : 0
            let delete: UInt8 = byte == 0x7F ? 1 : 0
            control |= (belowSpace & ~tab) | delete
        }
        return control == 0
    }

    /// `body` over the string's own bytes (or a copy, for a string kept in other storage).
    @inline(__always)
    private static func withBytes(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
