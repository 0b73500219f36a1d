import ByteCoding

/// A registration token as a dictionary key, hashed through a 64-bit digest of its bytes.
///
/// Every send to a token looks its device up, and `String` feeds all of a token's bytes
/// (~80) through SipHash: that cost more than the rest of the lookup. The digest reads the
/// bytes a word at a time (`ASCIIDigest`); the `Hasher` then mixes only the digest, still with its per-process
/// seed. Tokens are not secret and the emulator is local: keys chosen to collide could slow
/// their own lookups, nothing more.
///
/// Equality is on the token's bytes, as FCM and APNs compare tokens, not `String`'s canonical
/// equivalence, under which a few non-ASCII strings equal ASCII ones with other bytes (the
/// Kelvin sign equals `K`): such a spelling of a stored token names no device, and is refused as
/// malformed like any other non-ASCII token. A non-ASCII token gets the digest `unhashed`.
struct TokenKey: Hashable, Sendable {
    /// The token itself.
    let token: String
    /// The digest of the token's bytes; `unhashed` for a non-ASCII token.
    let digest: UInt64

    /// The digest of every non-ASCII token (an ASCII one may have it too, by chance).
    static var unhashed: UInt64 { ASCIIDigest.nonASCII }

    init(_ token: String) {
        self.token = token
        digest = Self.digest(of: token)
    }

    static func == (lhs: TokenKey, rhs: TokenKey) -> Bool {
        guard lhs.digest == rhs.digest else { return false }
        // Equal digests other than `unhashed` mean two ASCII tokens, and for those `String`'s
        // equality is a comparison of bytes, the fastest there is.
        guard lhs.digest == unhashed else { return lhs.token == rhs.token }
        return lhs.token.utf8.elementsEqual(rhs.token.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    /// A digest of the UTF-8 bytes of `token`: equal ASCII strings give equal digests;
    /// `unhashed` for a non-ASCII one.
    static func digest(of token: String) -> UInt64 {
        ASCIIDigest.digest(of: token)
    }
}
