import ByteCoding
import HTTPServer
import PushCore
import Synchronization
import XCTest
@testable import PushAPI

/// The token endpoint and `--auth strict` in-process: tokens from `/token`, and Google's answers
/// for missing, unknown, expired and under-scoped ones, all on the real clock.
final class OAuthRoutesTests: XCTestCase {
    /// The real clock the app reads, moved by the tests.
    private final class FakeWallClock: Sendable {
        let milliseconds = Atomic<Int64>(1_795_300_000_000)
        var now: Int64 { milliseconds.load(ordering: .relaxed) }
        func advance(seconds: Int64) { milliseconds.add(seconds * 1000, ordering: .relaxed) }
    }

    private let wall = FakeWallClock()
    private lazy var app: EmulatorApp = {
        var settings = EmulatorApp.Settings()
        settings.auth = .strict
        settings.oauth.accessTokenLifetimeSeconds = 600
        let wall = self.wall
        return EmulatorApp(settings: settings, wallTime: { wall.now })
    }()

    private func assertion(scope: String = OAuthScope.cloudPlatform, aud: String = "https://oauth2.googleapis.com/token") -> String {
        let now = wall.now / 1000
        let header = #"{"alg":"RS256","typ":"JWT"}"#
        let claims = #"{"iss":"sa@p.iam.gserviceaccount.com","scope":"\#(scope)","aud":"\#(aud)","iat":\#(now),"exp":\#(now + 3600)}"#
        return Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "." + Base64URL.encode([1, 2, 3])
    }

    private func post(_ path: String, form: String, authority: String = "127.0.0.1:9499") -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("content-type", "application/x-www-form-urlencoded")
        return app.handle(HTTPRequest(method: "POST", target: path, headers: headers, body: Array(form.utf8), authority: authority))
    }

    private func json(_ response: HTTPResponse) -> JSONValue? {
        guard case .bytes(let bytes) = response.body else { return nil }
        return try? JSONParser.parse(bytes)
    }

    private func token(scope: String = OAuthScope.cloudPlatform) throws -> String {
        let response = post("/token", form: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion(scope: scope))
        XCTAssertEqual(response.status, 200)
        return try XCTUnwrap(json(response)?["access_token"]?.stringValue)
    }

    private func send(bearer: String?) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let bearer { headers.add("authorization", bearer) }
        let body = #"{"message":{"token":"device-1","data":{"k":"v"}}}"#
        return app.handle(HTTPRequest(method: "POST", target: "/v1/projects/p/messages:send", headers: headers, body: Array(body.utf8)))
    }

    func testTokenResponseIsGooglesShape() throws {
        for path in ["/token", "/oauth2/v4/token"] {
            let response = post(path, form: "grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=" + assertion())
            XCTAssertEqual(response.status, 200, path)
            XCTAssertTrue(response.headers["content-type"]?.hasPrefix("application/json") ?? false)
            guard case .bytes(let bytes) = response.body else { return XCTFail("no body") }
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertTrue(text.contains(#""expires_in":599,"token_type":"Bearer""#), text)
            XCTAssertTrue(json(response)?["access_token"]?.stringValue?.hasPrefix("ya29.") ?? false)
        }
    }

    func testBadGrantsGetGooglesErrors() {
        let cases: [(String, String, String)] = [
            ("grant_type=password&username=x", "unsupported_grant_type", "Invalid grant_type: password"),
            ("grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer", "invalid_request", "Missing required parameter: assertion"),
            ("grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=abc", "invalid_grant",
             "Invalid JWT: the assertion must be three base64url segments separated by dots."),
        ]
        for (form, code, description) in cases {
            let response = post("/token", form: form)
            XCTAssertEqual(response.status, 400, form)
            XCTAssertEqual(json(response), ["error": .string(code), "error_description": .string(description)], form)
        }
    }

    func testTheEmulatorsOwnTokenURLIsAnAudienceOnlyForItsHost() {
        let own = "grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=" + assertion(aud: "http://emulator:9499/token")
        XCTAssertEqual(post("/token", form: own, authority: "emulator:9499").status, 200)
        XCTAssertEqual(post("/token", form: own, authority: "other:9499").status, 400)
    }

    func testStrictAcceptsAnIssuedTokenAndAnswersEachFailureAsGoogle() throws {
        let good = try token()
        XCTAssertEqual(send(bearer: "Bearer " + good).status, 200)

        let missing = send(bearer: nil)
        XCTAssertEqual(missing.status, 401)
        XCTAssertEqual(json(missing)?["error"]?["details"]?.arrayValue?.first?["reason"], "CREDENTIALS_MISSING")

        let unknown = send(bearer: "Bearer ya29.not-issued-here")
        XCTAssertEqual(unknown.status, 401)
        XCTAssertEqual(json(unknown)?["error"]?["status"], "UNAUTHENTICATED")
        XCTAssertEqual(json(unknown)?["error"]?["details"]?.arrayValue?.first?["reason"], "ACCESS_TOKEN_TYPE_UNSUPPORTED")
        XCTAssertEqual(unknown.headers["www-authenticate"], #"Bearer realm="https://accounts.google.com/", error="invalid_token""#)

        let datastore = try token(scope: "https://www.googleapis.com/auth/datastore")
        let underScoped = send(bearer: "Bearer " + datastore)
        XCTAssertEqual(underScoped.status, 403)
        XCTAssertEqual(json(underScoped)?["error"]?["status"], "PERMISSION_DENIED")
        XCTAssertEqual(json(underScoped)?["error"]?["message"], "Request had insufficient authentication scopes.")
        XCTAssertEqual(json(underScoped)?["error"]?["details"]?.arrayValue?.first?["reason"], "ACCESS_TOKEN_SCOPE_INSUFFICIENT")
        XCTAssertTrue(underScoped.headers["www-authenticate"]?.contains(#"error="insufficient_scope""#) ?? false)
    }

    func testTokensFollowTheRealClockNotTheEmulatorsClock() throws {
        let good = try token()
        app.core.advanceClock(seconds: 86_400)
        XCTAssertEqual(send(bearer: "Bearer " + good).status, 200, "a day on the emulator's clock changes nothing")
        wall.advance(seconds: 600)
        let expired = send(bearer: "Bearer " + good)
        XCTAssertEqual(expired.status, 401)
        XCTAssertEqual(json(expired)?["error"]?["details"]?.arrayValue?.first?["reason"], "ACCESS_TOKEN_EXPIRED")
        XCTAssertEqual(expired.headers["www-authenticate"], #"Bearer realm="https://accounts.google.com/", error="invalid_token""#)
    }

    func testInstanceIDRoutesAreCheckedToo() throws {
        var headers = HTTPHeaders()
        headers.add("authorization", "Bearer ya29.unknown")
        let body = #"{"to":"/topics/news","registration_tokens":["device-1"]}"#
        let response = app.handle(HTTPRequest(method: "POST", target: "/iid/v1:batchAdd", headers: headers, body: Array(body.utf8)))
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(json(response)?["error"], "UNAUTHENTICATED")
        headers = HTTPHeaders()
        headers.add("authorization", "Bearer " + (try token()))
        XCTAssertEqual(app.handle(HTTPRequest(method: "POST", target: "/iid/v1:batchAdd", headers: headers, body: Array(body.utf8))).status, 200)
    }
}
