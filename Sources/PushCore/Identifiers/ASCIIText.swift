/// Checks of identifiers byte by byte (tokens, header names, topics), written as loops without
/// an early exit, which the compiler turns into vector code: each APNs push runs several over
/// its token of 64 or more bytes, and the per-byte closures of `contains(where:)` and
/// `allSatisfy` cost 8 to 12 instructions a byte, these loops under 2.
enum ASCIIText {
    /// Whether `text` has a byte from A to Z.
    static func hasUppercase(_ text: String) -> Bool {
        withBytes(of: text) { bytes in
            var found: UInt8 = 0
            for byte in bytes { found |= byte &- UInt8(ascii: "A") < 26 ? 1 : 0 }
            return found != 0
        }
    }

    /// Whether every byte of `text` is a hex digit, in either case.
    static func isHex(_ text: String) -> Bool {
        withBytes(of: text) { bytes in
            var other: UInt8 = 0
            for byte in bytes {
                let digit: UInt8 = byte &- UInt8(ascii: "0") < 10 ? 1 : 0
                // `| 0x20` makes A to F a to f and leaves a to f as they are.
                let letter: UInt8 = (byte | 0x20) &- UInt8(ascii: "a") < 6 ? 1 : 0
                other |= (digit | letter) ^ 1
            }
            return other == 0
        }
    }

    /// Whether every byte of `text` is an ASCII letter or digit, `.`, `-` or `_`.
    static func isBundleIDText(_ text: String) -> Bool {
        withBytes(of: text) { bytes in
            var other: UInt8 = 0
            for byte in bytes {
                let letter: UInt8 = (byte | 0x20) &- UInt8(ascii: "a") < 26 ? 1 : 0
                let digit: UInt8 = byte &- UInt8(ascii: "0") < 10 ? 1 : 0
                let dot: UInt8 = byte == UInt8(ascii: ".") ? 1 : 0
                let dash: UInt8 = byte == UInt8(ascii: "-") ? 1 : 0
                let underscore: UInt8 = byte == UInt8(ascii: "_") ? 1 : 0
                other |= (letter | digit | dot | dash | underscore) ^ 1
            }
            return other == 0
        }
    }

    /// `body` over the string's own bytes (or a copy, for a string kept in other storage).
    @inline(__always)
    private static func withBytes(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
