/// The JWT a service account signs to get an access token (the JWT-bearer grant, RFC 7523),
/// taken apart and checked as Google's token endpoint checks it.
///
/// The rules, in the order they are checked (each failure is a `TokenGrantError`):
/// 1. Three base64url segments, header and claims JSON objects; else `invalid_grant` "Invalid JWT: ...".
/// 2. Header `alg` `RS256` (`kid` and `typ` are optional and not checked); else "Invalid JWT Signature.".
/// 3. Claims `iss` a non-empty string; with known accounts, one of them ("Invalid grant: account
///    not found") whose key verifies the signature ("Invalid JWT Signature."). Without known
///    accounts no signature is checked.
/// 4. `aud` one of the accepted audiences (Google's token URLs and the emulator's own).
/// 5. `iat` and `exp` whole numbers of seconds with `iat` < `exp` ≤ `iat` + 3600, `exp` after
///    `now` and `iat` at most `allowedClockSkewSeconds` after `now`.
/// 6. `scope` space-separated, at least one, each a Google scope URL (`invalid_scope`).
/// `sub` and any other claim are ignored.
public struct ServiceAccountAssertion: Sendable, Equatable {
    /// The claims' `iss`: the service account's email.
    public let issuer: String
    /// The claims' `scope`, split at spaces.
    public let scopes: [String]
    /// The claims' `iat`, in seconds since the epoch.
    public let issuedAt: Int64
    /// The claims' `exp`, in seconds since the epoch.
    public let expiresAt: Int64

    /// The longest lifetime an assertion may ask for (`exp` − `iat`).
    public static let maximumLifetimeSeconds: Int64 = 3600
    /// How far in the future an `iat` may lie: a client's clock a little ahead of the server's.
    public static let allowedClockSkewSeconds: Int64 = 300
    /// The audiences every emulator accepts: Google's token URLs, the current and the older one.
    public static let googleAudiences: Set<String> = ["https://oauth2.googleapis.com/token", "https://www.googleapis.com/oauth2/v4/token"]

    /// The `iss` an assertion claims, read without checking anything else (token-endpoint faults
    /// fire on it before the checks); nil when the assertion is not a JWT or has no string `iss`.
    public static func claimedIssuer(of assertion: some StringProtocol) -> String? {
        guard let jwt = try? JSONWebToken(parsing: assertion), case .string(let issuer)? = jwt.claims["iss"],
              !issuer.isEmpty
        else { return nil }
        return issuer
    }

    /// Parses `assertion` and checks it (see the type's rules).
    ///
    /// - Parameters:
    ///   - accounts: the known service accounts by email; empty, no signature is checked.
    ///   - audiences: the accepted `aud` values.
    ///   - now: the real time, in seconds since the epoch (never the emulator's clock: clients
    ///     stamp assertions by real time).
    public init(
        checking assertion: some StringProtocol, accounts: [String: ServiceAccount], audiences: Set<String>, now: Int64
    ) throws(TokenGrantError) {
        let jwt: JSONWebToken
        do {
            jwt = try JSONWebToken(parsing: assertion)
        } catch {
            switch error {
            case .notThreeSegments: throw .invalidJWT("the assertion must be three base64url segments separated by dots.")
            case .notBase64URL(let segment): throw .invalidJWT("segment \(segment + 1) of the assertion is not unpadded base64url.")
            case .notJSONObject(let segment): throw .invalidJWT("segment \(segment + 1) of the assertion is not a JSON object.")
            }
        }
        guard case .string("RS256")? = jwt.header["alg"] else { throw .invalidSignature }
        guard case .string(let issuer)? = jwt.claims["iss"], !issuer.isEmpty else {
            throw .invalidJWT("the iss claim (the service account's email) is missing.")
        }
        if !accounts.isEmpty {
            guard let account = accounts[issuer] else { throw .accountNotFound }
            guard account.verify(jwt.signedBytes, jwt.signature) else { throw .invalidSignature }
        }
        let audience = jwt.claims["aud"]?.stringValue
        guard let audience, audiences.contains(audience) else { throw .badAudience(audience) }
        guard let issuedAt = jwt.seconds("iat"), let expiresAt = jwt.seconds("exp"),
              issuedAt < expiresAt, expiresAt - issuedAt <= Self.maximumLifetimeSeconds,
              expiresAt > now, issuedAt <= now + Self.allowedClockSkewSeconds
        else { throw .badTimeframe }
        guard case .string(let scopeClaim)? = jwt.claims["scope"] else { throw .missingScope }
        let scopes = OAuthScope.split(scopeClaim)
        guard !scopes.isEmpty else { throw .missingScope }
        guard scopes.allSatisfy({ $0.hasPrefix(OAuthScope.googlePrefix) && $0.count > OAuthScope.googlePrefix.count }) else {
            throw .invalidScope
        }
        self.issuer = issuer
        self.scopes = scopes
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}
