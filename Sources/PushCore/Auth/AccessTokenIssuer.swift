import ByteCoding
import Locking

/// What an access token presented to FCM turns out to be.
public enum AccessTokenCheck: Sendable, Equatable {
    /// Issued here, unexpired, with a messaging scope.
    case valid
    /// Not issued by this run of the emulator (or altered).
    case unknown
    /// Issued here, past its expiry.
    case expired
    /// Issued here and unexpired, but without a scope that reaches FCM (`OAuthScope.messaging`).
    case insufficientScope
}

/// An access token the token endpoint handed out.
public struct IssuedAccessToken: Sendable, Equatable {
    /// The opaque token, shaped like Google's: `ya29.` and url-safe characters.
    public let token: String
    /// What the response's `expires_in` says: a second less than the lifetime, as Google answers
    /// 3599 for its hour (so that a client's clock a little behind does not keep a dead token).
    public let expiresInSeconds: Int64
}

/// Issues access tokens and checks them, timed on the real clock, without keeping them: a token
/// carries its expiry and whether it has a messaging scope, under an HMAC-SHA256 tag with a key
/// made when the issuer is. Memory does not grow with the tokens issued, a token is good until its
/// expiry whatever was issued after it, an expired one is told apart from an unknown one for
/// ever, and no token of an earlier run (another key) passes. docs/auth.md.
///
/// A token is `ya29.` and the base64url of these 60 bytes (80 characters):
/// | bytes | what |
/// |---|---|
/// | 0 | the layout's version, 1 |
/// | 1 | 1 when the scopes include a messaging scope, else 0 |
/// | 2..<10 | the expiry, milliseconds since the epoch, big-endian |
/// | 10..<28 | random bytes, so that no two tokens are alike |
/// | 28..<60 | the tag of bytes 0..<28 |
public final class AccessTokenIssuer: Sendable {
    /// How long a token lives (`--access-token-lifetime`), in seconds.
    public let lifetimeSeconds: Int64
    /// What tags a token's signed bytes.
    private let key: HMACSHA256
    /// Tokens checked a moment ago, not tagged again: each event loop remembers its own.
    private let recent: PerLoop<RecentAccessTokens>

    /// What every token starts with, as Google's do.
    static let prefix = "ya29."
    /// The layout's version (byte 0).
    static let version: UInt8 = 1
    /// The bytes the tag covers: version, scope, expiry and the random bytes.
    static let signedLength = 28
    /// The length of the tag.
    static let tagLength = HMACSHA256.tagLength
    /// The random bytes of each token.
    static let randomLength = 18
    /// The length of a token: the prefix and the base64url of its 60 bytes, no padding.
    static let textLength = prefix.utf8.count + (signedLength + tagLength) * 4 / 3

    /// An issuer whose tokens live `lifetimeSeconds` (at least 1), under a new random 256-bit key.
    public convenience init(lifetimeSeconds: Int64 = 3600, loops: Int = 1) {
        self.init(lifetimeSeconds: lifetimeSeconds, key: Self.randomBytes(32), loops: loops)
    }

    /// An issuer whose tokens live `lifetimeSeconds` (at least 1), under `key` (tests: the
    /// emulator makes a random one), checked on `loops` event loops.
    public init(lifetimeSeconds: Int64, key: [UInt8], loops: Int = 1) {
        self.lifetimeSeconds = max(1, lifetimeSeconds)
        self.key = HMACSHA256(key: key)
        recent = PerLoop(loops: loops) { RecentAccessTokens() }
    }

    /// Issues a new token for `scopes` at `now` (real time, milliseconds since the epoch).
    public func issue(scopes: [String], now: Int64) -> IssuedAccessToken {
        let expiresAt = UInt64(bitPattern: now + lifetimeSeconds * 1000)
        var bytes: [UInt8] = [Self.version, scopes.contains(where: OAuthScope.messaging.contains) ? 1 : 0]
        bytes.reserveCapacity(Self.signedLength + Self.tagLength)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: expiresAt >> UInt64(shift))) }
        bytes += Self.randomBytes(Self.randomLength)
        bytes += key.tag(of: bytes)
        return IssuedAccessToken(token: Self.prefix + Base64URL.encode(bytes), expiresInSeconds: lifetimeSeconds - 1)
    }

    /// What `token` is at `now` (real time, milliseconds since the epoch), checked on event loop
    /// number `loop`. A token is good until its last millisecond: at `now` equal to its expiry it
    /// has expired. Expiry is told before scope.
    public func check(_ token: some StringProtocol, now: Int64, loop: Int = 0) -> AccessTokenCheck {
        let text = String(token)
        guard let entry = recent.withLock(loop: loop, { $0.entry(of: text) }) ?? verify(text, loop: loop) else { return .unknown }
        if now >= entry.expiresAt { return .expired }
        return entry.hasMessagingScope ? .valid : .insufficientScope
    }

    /// What a token carries, when its tag is right; it is then remembered as checked.
    private func verify(_ token: String, loop: Int) -> RecentAccessTokens.Entry? {
        // Read as an array of the string's bytes (copied at once): walking a UTF-8 view goes byte
        // by byte through its indices.
        let text = Array(token.utf8)
        guard text.count == Self.textLength, text.starts(with: Self.prefix.utf8),
              let bytes = Base64URL.decode(bytes: text[Self.prefix.utf8.count...]),
              bytes.count == Self.signedLength + Self.tagLength, bytes[0] == Self.version, bytes[1] <= 1
        else { return nil }
        guard key.tag(of: Array(bytes[0..<Self.signedLength])) == Array(bytes[Self.signedLength...]) else { return nil }
        let entry = RecentAccessTokens.Entry(
            text: token, expiresAt: Int64(bitPattern: bytes[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }),
            hasMessagingScope: bytes[1] == 1)
        recent.withLock(loop: loop) { $0.remember(entry) }
        return entry
    }

    /// `count` bytes from the system's generator, eight at a time (one system call each).
    private static func randomBytes(_ count: Int) -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        while bytes.count < count {
            let word: UInt64 = random.next()
            bytes += (0..<min(8, count - bytes.count)).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
        }
        return bytes
    }
}
