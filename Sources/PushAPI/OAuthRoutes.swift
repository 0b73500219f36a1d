import ByteCoding
import HTTPServer
import PushCore

/// The OAuth token endpoint (`oauth2.googleapis.com/token`, and the older
/// `www.googleapis.com/oauth2/v4/token`): the JWT-bearer grant service accounts make. The form
/// is `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`; the answer
/// `{"access_token","expires_in","token_type":"Bearer"}` or Google's `{"error","error_description"}`.
struct OAuthRoutes {
    let endpoint: TokenEndpoint
    /// Where token-endpoint faults are kept (`match.serviceAccount`, docs/faults.md).
    let core: PushEmulatorCore
    /// The real time in milliseconds since the epoch: assertions and tokens never follow the
    /// emulator's clock (clients stamp and cache them by real time).
    let wallTime: @Sendable () -> Int64

    /// The paths the endpoint answers on.
    static let paths = ["/token", "/oauth2/v4/token"]

    func register(in router: inout Router) {
        for path in Self.paths {
            router.add("POST", path) { request in token(request) }
        }
    }

    func token(_ request: HTTPRequest) -> HTTPResponse {
        let form = request.formItems
        let grantType = form.first { $0.name == "grant_type" }?.value
        let assertion = form.first { $0.name == "assertion" }?.value
        // Faults fire before any check: they answer whatever the assertion, as long as its `iss`
        // can be read.
        if let issuer = assertion.flatMap(ServiceAccountAssertion.claimedIssuer(of:)),
           let fired = core.fireFault(onTokenRequestOf: issuer) {
            return answer(fired, grantType: grantType, assertion: assertion, ownURLs: Self.ownURLs(request))
        }
        return grant(grantType: grantType, assertion: assertion, ownURLs: Self.ownURLs(request))
    }

    /// A fired token fault's answer: its error (`invalid_grant` 400 or `UNAVAILABLE` 503), its
    /// connection fault, or, for a pure delay, the grant itself — after the delay, if any.
    private func answer(_ fired: FiredFault, grantType: String?, assertion: String?, ownURLs: [String]) -> HTTPResponse {
        FaultAnswer.respond(after: fired.delayMilliseconds) { [self] in
            let error: HTTPResponse? =
                switch fired.error {
                case .invalidGrant?: Self.failure(.invalidSignature, retryAfterSeconds: fired.retryAfterSeconds)
                case .fcm?: Self.failure(.temporarilyUnavailable, retryAfterSeconds: fired.retryAfterSeconds)
                case .apns?, nil: nil
                }
            return FaultAnswer.answer(fired, error: error, goAwayReason: nil) {
                grant(grantType: grantType, assertion: assertion, ownURLs: ownURLs)
            }
        }
    }

    private func grant(grantType: String?, assertion: String?, ownURLs: [String]) -> HTTPResponse {
        switch endpoint.grant(grantType: grantType, assertion: assertion, ownURLs: ownURLs, now: wallTime()) {
        case .success(let issued):
            let body: JSONValue = [
                "access_token": .string(issued.token),
                "expires_in": .number(String(issued.expiresInSeconds)),
                "token_type": "Bearer",
            ]
            return .json(200, JSONSerializer.serialize(body), headers: Self.noStore)
        case .failure(let error):
            return Self.failure(error)
        }
    }

    private static func failure(_ error: TokenGrantError, retryAfterSeconds: Int? = nil) -> HTTPResponse {
        guard let retryAfterSeconds else { return .json(error.httpStatus, error.jsonBytes, headers: noStore) }
        var headers = noStore
        headers.set("retry-after", String(retryAfterSeconds))
        return .json(error.httpStatus, error.jsonBytes, headers: headers)
    }

    /// Token responses must not be cached (RFC 6749 §5.1).
    private static let noStore: HTTPHeaders = {
        var headers = HTTPHeaders()
        headers.set("cache-control", "no-store")
        return headers
    }()

    /// The token URLs of the host the request was sent to, which an assertion may name as `aud`
    /// (Go's SDK names its `token_uri`): either scheme, so that a TLS-terminating proxy in front
    /// changes nothing.
    static func ownURLs(_ request: HTTPRequest) -> [String] {
        guard let authority = request.authority, !authority.isEmpty else { return [] }
        return ["http://", "https://"].flatMap { scheme in paths.map { scheme + authority + $0 } }
    }
}
