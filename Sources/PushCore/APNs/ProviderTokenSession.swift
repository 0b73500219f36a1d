/// The provider-token state of one APNs connection: the token it last accepted, the team it
/// serves and when its token was last renewed. `check` decides each request's `authorization`.
///
/// The rules (`--apns-auth`; docs/apns.md):
/// - `off`: every request passes.
/// - No `authorization`, a scheme other than `bearer` (any case) or an empty token:
///   MissingProviderToken.
/// - `any`: the token must be a well-formed ES256 JWT (`ProviderToken`), else InvalidProviderToken.
/// - `strict`, in this order: a malformed token, a `kid` not among the keys, an `iss` other than
///   that key's team, a signature the key does not verify, or a team other than the one the
///   connection's first accepted token named → InvalidProviderToken. An `iat` more than an hour
///   after `now` → InvalidProviderToken; `now` more than 3600 s after `iat` →
///   ExpiredProviderToken (at exactly 3600 s the token is still good).
///   Then the refresh rule: a token whose `iat` is later than the connection's current one's is an
///   update (an older one, still in flight while the client renews, is not); an update less than 20 minutes after the current token was accepted →
///   TooManyProviderTokenUpdates, and from then on every request whose token is otherwise good
///   gets TooManyProviderTokenUpdates, the current token's too, until 20 minutes have passed
///   since the current token was accepted; at exactly 20 minutes an update is accepted. A new
///   token with the same `iat` (signed again) is not an update.
///
/// A token string equal to the last accepted one is not parsed or verified again: only the
/// checks that depend on `now` run (a connection reusing its token pays for one verification),
/// against that token's own `iat`, kept with it. The last accepted token need not be the current
/// one (an older token still in flight while the client renews), so the current token's `iat`
/// would make an expired older token look fresh.
public struct ProviderTokenSession: Sendable {
    /// How long after its `iat` a token is good, and how far in the future an `iat` may lie.
    public static let tokenLifetimeSeconds: Int64 = 3600
    /// How long a connection keeps its token before it may renew it.
    public static let minimumUpdateIntervalSeconds: Int64 = 20 * 60

    /// The last accepted token as sent, its own `iat` and the mode it was accepted in: the cache.
    private var acceptedToken: (text: Substring, issuedAt: Int64, mode: APNsAuthMode)?
    /// The team of the connection's first accepted token (strict mode).
    private var teamID: String?
    /// The `iat` of the connection's current token and when it was accepted (strict mode).
    private var current: (issuedAt: Int64, acceptedAt: Timestamp)?
    /// Set by a refused update: until then every request gets TooManyProviderTokenUpdates.
    private var refusedUntil: Timestamp?

    /// A connection that has seen no token yet.
    public init() {}

    /// Checks a request's `authorization` header value; nil means the request is authenticated.
    /// `keys` are the known provider keys by key id (strict mode), `now` the emulator's clock.
    public mutating func check(
        authorization: String?, mode: APNsAuthMode, keys: [String: ProviderKey], now: Timestamp
    ) -> APNsReason? {
        if mode == .off { return nil }
        // The same header as the accepted token's (what a client sends on every request) needs
        // no taking apart: one comparison of the whole value.
        if let accepted = acceptedToken, accepted.mode == mode, let authorization, accepted.text.base == authorization {
            guard mode == .strict else { return nil }
            if let reason = Self.ageReason(issuedAt: accepted.issuedAt, now: now) { return reason }
            return accept(issuedAt: accepted.issuedAt, now: now)
        }
        guard let token = BearerCredential.token(in: authorization) else { return .missingProviderToken }
        let cached = acceptedToken.flatMap { $0.mode == mode && $0.text == token ? $0 : nil }
        switch mode {
        case .off:
            return nil
        case .any:
            if cached == nil {
                guard let parsed = try? ProviderToken(parsing: token) else { return .invalidProviderToken }
                acceptedToken = (token, parsed.issuedAt, mode)
            }
            return nil
        case .strict:
            if let cached {
                if let reason = Self.ageReason(issuedAt: cached.issuedAt, now: now) { return reason }
                return accept(issuedAt: cached.issuedAt, now: now)
            }
            guard let parsed = try? ProviderToken(parsing: token), let key = keys[parsed.keyID],
                  parsed.teamID == key.teamID, key.verify(parsed.signedBytes, parsed.signature),
                  teamID == nil || teamID == parsed.teamID
            else { return .invalidProviderToken }
            if let reason = Self.ageReason(issuedAt: parsed.issuedAt, now: now) { return reason }
            if let reason = accept(issuedAt: parsed.issuedAt, now: now) { return reason }
            teamID = parsed.teamID
            acceptedToken = (token, parsed.issuedAt, mode)
            return nil
        }
    }

    /// Whether a good token with this `iat` may be used now: makes it the current one when it is
    /// an allowed update, or answers TooManyProviderTokenUpdates.
    private mutating func accept(issuedAt: Int64, now: Timestamp) -> APNsReason? {
        if let until = refusedUntil {
            if now < until { return .tooManyProviderTokenUpdates }
            refusedUntil = nil
        }
        guard let current else {
            self.current = (issuedAt, now)
            return nil
        }
        // The current token, or an older one still in flight on another stream while the client
        // renews: neither is a renewal.
        if issuedAt <= current.issuedAt { return nil }
        let allowedAt = current.acceptedAt.adding(seconds: Self.minimumUpdateIntervalSeconds)
        guard now >= allowedAt else {
            refusedUntil = allowedAt
            return .tooManyProviderTokenUpdates
        }
        self.current = (issuedAt, now)
        return nil
    }

    /// InvalidProviderToken for an `iat` more than the lifetime ahead of `now`, ExpiredProviderToken
    /// for one more than the lifetime behind it.
    private static func ageReason(issuedAt: Int64, now: Timestamp) -> APNsReason? {
        let issued = Timestamp(secondsSinceEpoch: issuedAt)
        if issued > now.adding(seconds: tokenLifetimeSeconds) { return .invalidProviderToken }
        if now > issued.adding(seconds: tokenLifetimeSeconds) { return .expiredProviderToken }
        return nil
    }
}
