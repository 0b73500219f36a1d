/// The OAuth token endpoint's rules (`POST /token`): the JWT-bearer grant a service account
/// makes, answered with a new access token or Google's error.
public struct TokenEndpoint: Sendable {
    /// The grant type service accounts use (RFC 7523).
    public static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// The known service accounts by email (`--service-account`); empty, signatures are not checked.
    public let accounts: [String: ServiceAccount]
    /// What makes the tokens, and how long they live.
    public let issuer: AccessTokenIssuer

    /// Makes the endpoint over `accounts` and `issuer`.
    public init(accounts: [ServiceAccount], issuer: AccessTokenIssuer) {
        self.accounts = Dictionary(accounts.map { ($0.clientEmail, $0) }, uniquingKeysWith: { _, last in last })
        self.issuer = issuer
    }

    /// Answers a grant: the form's `grant_type` and `assertion`, the emulator's own token URLs
    /// (accepted as `aud` besides Google's), and the real time in milliseconds since the epoch.
    public func grant(grantType: String?, assertion: String?, ownURLs: [String], now: Int64) -> Result<IssuedAccessToken, TokenGrantError> {
        guard grantType == Self.jwtBearerGrantType else { return .failure(.unsupportedGrantType(grantType)) }
        guard let assertion, !assertion.isEmpty else { return .failure(.missingAssertion) }
        do {
            let checked = try ServiceAccountAssertion(
                checking: assertion, accounts: accounts,
                audiences: ServiceAccountAssertion.googleAudiences.union(ownURLs), now: now / 1000)
            return .success(issuer.issue(scopes: checked.scopes, now: now))
        } catch {
            return .failure(error)
        }
    }
}
