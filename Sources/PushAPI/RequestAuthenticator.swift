import HTTPServer
import PushCore

/// Decides whether an FCM, topic or Instance ID request's credentials pass (`--auth`), and answers
/// Google's 401 or 403 when they do not. In `strict` mode the bearer token must be one the
/// emulator's `/token` issued, unexpired on the real clock, with a messaging scope.
struct RequestAuthenticator: Sendable {
    let mode: AuthMode
    let tokens: AccessTokenIssuer
    /// The real time in milliseconds since the epoch (never the emulator's clock).
    let wallTime: @Sendable () -> Int64

    /// `WWW-Authenticate` for a token that is not (or no longer) good: Java's client refreshes
    /// its token on a 401 only with this header or none.
    static let invalidTokenChallenge = #"Bearer realm="https://accounts.google.com/", error="invalid_token""#
    /// `WWW-Authenticate` for a token without a messaging scope.
    static let insufficientScopeChallenge =
        #"Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="\#(OAuthScope.firebaseMessaging) \#(OAuthScope.cloudPlatform)""#

    /// Google's answer when the request's credentials do not pass, else nil: without a bearer token
    /// (`BearerCredential`) in every mode but `off`, and for a token that is not good in `strict`.
    func reject(_ request: HTTPRequest) -> HTTPResponse? {
        guard mode != .off else { return nil }
        guard let header = request.headers["authorization"] else {
            return GoogleErrorResponse.make(.unauthenticated(reason: "CREDENTIALS_MISSING"))
        }
        guard let token = BearerCredential.token(in: header) else {
            return GoogleErrorResponse.make(.unauthenticated(reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED"))
        }
        guard mode == .strict else { return nil }
        let (error, challenge): (GoogleError, String)
        switch tokens.check(token, now: wallTime(), loop: request.connection?.loop ?? 0) {
        case .valid:
            return nil
        case .unknown:
            // Google's details for a token it never issued are unconfirmed; ACCESS_TOKEN_TYPE_UNSUPPORTED
            // is what it answers for a credential that is no access token of its own.
            (error, challenge) = (.unauthenticated(reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED"), Self.invalidTokenChallenge)
        case .expired:
            (error, challenge) = (.unauthenticated(reason: "ACCESS_TOKEN_EXPIRED"), Self.invalidTokenChallenge)
        case .insufficientScope:
            (error, challenge) = (.insufficientScope(), Self.insufficientScopeChallenge)
        }
        var response = GoogleErrorResponse.make(error)
        response.headers.set("www-authenticate", challenge)
        return response
    }
}
