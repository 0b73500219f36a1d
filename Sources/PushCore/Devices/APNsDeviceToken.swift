import ByteCoding

/// APNs device tokens: hex strings of variable length.
public enum APNsDeviceToken {
    /// Whether `token` is hex for 1 to 256 bytes (2 to 512 hex digits, an even count).
    ///
    /// Apple says not to assume a length (64, 104, 108 and 160 digits have been seen), so only
    /// the shape is checked.
    public static func isWellFormed(_ token: String) -> Bool {
        let count = token.utf8.count
        guard count >= 2, count <= 512, count % 2 == 0 else { return false }
        return ASCIIScan.isHex(token)
    }

    /// The token in lowercase, the one form the emulator stores, so `ABCD` and `abcd` name one
    /// device. A token in lowercase already (nearly every one) is returned as it is, not copied.
    public static func normalized(_ token: String) -> String {
        ASCIIScan.hasUppercase(token) ? token.lowercased() : token
    }
}

extension UInt8 {
    /// Whether it is an ASCII hex digit, either case.
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
