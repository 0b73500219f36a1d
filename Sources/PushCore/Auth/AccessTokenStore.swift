import Locking

/// What an access token presented to FCM turns out to be.
public enum AccessTokenCheck: Sendable, Equatable {
    /// Issued here, unexpired, with a messaging scope.
    case valid
    /// Not issued here (or forgotten: a day after it expired, or across a restart).
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

/// The access tokens the emulator issued, with their scopes and expiry, timed on the real clock.
/// Safe to share between threads.
///
/// Memory stays bounded by the tokens of the last day: a token expired more than
/// `retentionAfterExpiryMilliseconds` ago is forgotten (then it is `unknown`, as after a restart),
/// swept when the table has doubled since the last sweep.
public final class AccessTokenStore: Sendable {
    /// How long a token lives (`--access-token-lifetime`), in seconds.
    public let lifetimeSeconds: Int64
    /// How long an expired token is still recognised as expired rather than unknown.
    public static let retentionAfterExpiryMilliseconds: Int64 = 86_400_000
    /// Random characters after `ya29.`: 120 of 64 symbols, 720 bits.
    static let randomCharacters = 120

    private struct Entry {
        let expiresAt: Int64
        let hasMessagingScope: Bool
    }

    private struct Table {
        var entries: [String: Entry] = [:]
        var sweepAtCount = 1024
    }

    private let table = Locked(Table())

    /// A store whose tokens live `lifetimeSeconds` (at least 1).
    public init(lifetimeSeconds: Int64 = 3600) {
        self.lifetimeSeconds = max(1, lifetimeSeconds)
    }

    /// Issues a new token for `scopes` at `now` (real time, milliseconds since the epoch).
    public func issue(scopes: [String], now: Int64) -> IssuedAccessToken {
        var random = SystemRandomNumberGenerator()
        let alphabet = RegistrationToken.alphabet
        let token = "ya29." + String((0..<Self.randomCharacters).map { _ in alphabet[Int(random.next(upperBound: UInt64(alphabet.count)))] })
        let entry = Entry(expiresAt: now + lifetimeSeconds * 1000, hasMessagingScope: scopes.contains(where: OAuthScope.messaging.contains))
        table.withLock { table in
            table.entries[token] = entry
            if table.entries.count >= table.sweepAtCount {
                let forgetBefore = now - Self.retentionAfterExpiryMilliseconds
                table.entries = table.entries.filter { $0.value.expiresAt > forgetBefore }
                table.sweepAtCount = max(1024, 2 * table.entries.count)
            }
        }
        return IssuedAccessToken(token: token, expiresInSeconds: lifetimeSeconds - 1)
    }

    /// What `token` is at `now` (real time, milliseconds since the epoch). A token is good until
    /// its last millisecond: at `now` equal to its expiry it has expired.
    public func check(_ token: some StringProtocol, now: Int64) -> AccessTokenCheck {
        guard let entry = table.withLock({ $0.entries[String(token)] }) else { return .unknown }
        if now >= entry.expiresAt {
            return now - entry.expiresAt < Self.retentionAfterExpiryMilliseconds ? .expired : .unknown
        }
        return entry.hasMessagingScope ? .valid : .insufficientScope
    }

    /// How many tokens are held (issued and not yet forgotten).
    public var count: Int { table.withLock { $0.entries.count } }
}
