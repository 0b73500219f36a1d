import ByteCoding

/// The `Authorization: Basic <base64 of user:password>` credential (RFC 7617), the one reading of
/// it: `--ui-auth-file`'s check (docs/inbox.md). Beside `BearerCredential`, read the same way.
public enum BasicCredential {
    /// The user and password of `basic <base64>`: the scheme in any case, one or more spaces, then
    /// base64 (`+/` or `-_`, padding optional) of `user:password`, split at the first colon (a
    /// user name has none; a password may). nil for another scheme, bad base64 or no colon.
    public static func userAndPassword(in header: String?) -> (user: String, password: [UInt8])? {
        guard let header else { return nil }
        let bytes = Array(header.utf8)
        var index = 0
        while index < bytes.count, bytes[index] == space { index += 1 }
        for expected in scheme {
            // Every byte of the scheme is a lowercase letter, so `| 0x20` lets only its capital through.
            guard index < bytes.count, bytes[index] | 0x20 == expected else { return nil }
            index += 1
        }
        guard index < bytes.count, bytes[index] == space else { return nil }
        while index < bytes.count, bytes[index] == space { index += 1 }
        var end = bytes.count
        while end > index, bytes[end - 1] == space { end -= 1 }
        guard end > index, let decoded = Base64URL.decode(bytes: bytes[index..<end], lenient: true),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        return (String(decoding: decoded[..<colon], as: UTF8.self), Array(decoded[(colon + 1)...]))
    }

    private static let scheme: [UInt8] = Array("basic".utf8)
    private static let space = UInt8(ascii: " ")
}
