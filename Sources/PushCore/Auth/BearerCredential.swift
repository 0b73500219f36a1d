/// The `Authorization: Bearer <token>` credential, the one reading of it for every API that takes
/// one (FCM in every `--auth` mode, the APNs provider API).
///
/// RFC 6750 §2.1: the scheme (case-insensitive, RFC 9110 §11.1: APNs clients send `bearer`),
/// one or more spaces, then the token. A tab is not a separator there, and a token holds no
/// blank or control byte (docs/auth.md).
public enum BearerCredential {
    /// The token of `bearer <token>`: the scheme in any case, one or more spaces, then a token of
    /// visible ASCII bytes (spaces around the whole value are ignored); nil when the header is
    /// another scheme, is separated otherwise, or its token is empty or holds other bytes.
    public static func token(in header: String?) -> Substring? {
        guard let header else { return nil }
        // Read through the UTF-8 span: indexing the UTF-8 view itself cost several hundred
        // instructions for a short header.
        let bytes = header.utf8.span
        var index = 0
        while index < bytes.count, bytes[index] == space { index += 1 }
        for expected in scheme {
            // Every byte of the scheme is a lowercase letter, so `| 0x20` lets only its capital through.
            guard index < bytes.count, bytes[index] | 0x20 == expected else { return nil }
            index += 1
        }
        guard index < bytes.count, bytes[index] == space else { return nil }
        while index < bytes.count, bytes[index] == space { index += 1 }
        let start = index
        while index < bytes.count, bytes[index] > space, bytes[index] < 0x7F { index += 1 }
        let end = index
        // Only spaces may follow the token.
        while index < bytes.count, bytes[index] == space { index += 1 }
        guard start != end, index == bytes.count else { return nil }
        let utf8 = header.utf8
        return header[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]
    }

    private static let scheme: [UInt8] = Array("bearer".utf8)
    private static let space = UInt8(ascii: " ")
}
