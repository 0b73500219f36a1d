import ByteCoding
import HTTPServer
import PushCore

/// The OAuth token endpoint (`oauth2.googleapis.com/token`, and the older
/// `www.googleapis.com/oauth2/v4/token`): the JWT-bearer grant service accounts make. The form
/// is `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`; the answer
/// `{"access_token","expires_in","token_type":"Bearer"}` or Google's `{"error","error_description"}`.
struct OAuthRoutes {
    let endpoint: TokenEndpoint
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
        switch endpoint.grant(grantType: grantType, assertion: assertion, ownURLs: Self.ownURLs(request), now: wallTime()) {
        case .success(let issued):
            let body: JSONValue = [
                "access_token": .string(issued.token),
                "expires_in": .number(String(issued.expiresInSeconds)),
                "token_type": "Bearer",
            ]
            return .json(200, JSONSerializer.serialize(body), headers: Self.noStore)
        case .failure(let error):
            return .json(error.httpStatus, error.jsonBytes, headers: Self.noStore)
        }
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
