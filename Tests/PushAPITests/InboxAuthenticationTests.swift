import HTTPServer
import Signatures
import XCTest
@testable import PushAPI

/// `--ui-auth-file`: every /emulator/ route needs a user's password; the rest do not.
final class InboxAuthenticationTests: XCTestCase {
    private func app() throws -> EmulatorApp {
        var settings = EmulatorApp.Settings()
        settings.inboxUsers = try HtpasswdUsers(text: "alice:{SHA}O1hAcUlX7zkBbV+/3rmbDfUlbNM=")
        return EmulatorApp(settings: settings)
    }

    private func get(_ app: EmulatorApp, _ target: String, authorization: String? = nil) -> HTTPResponse {
        var headers: HTTPHeaders = ["host": "localhost:9499"]
        if let authorization { headers.set("authorization", authorization) }
        var request = HTTPRequest(method: "GET", target: target, headers: headers, body: [])
        request.authority = "localhost:9499"
        return app.handle(request)
    }

    func testEmulatorRoutesNeedAUsersPassword() throws {
        let app = try app()
        // "alice:secret pass" and "alice:wrong" in base64.
        let good = "Basic YWxpY2U6c2VjcmV0IHBhc3M=", wrong = "Basic YWxpY2U6d3Jvbmc="
        for target in ["/emulator/v1/projects", "/emulator/ui/", "/emulator/ui/app.js"] {
            let refused = get(app, target)
            XCTAssertEqual(refused.status, 401, target)
            XCTAssertEqual(refused.headers["www-authenticate"], InboxAuthentication.challenge)
            XCTAssertEqual(get(app, target, authorization: wrong).status, 401, target)
            XCTAssertEqual(get(app, target, authorization: "Bearer x").status, 401, target)
            XCTAssertEqual(get(app, target, authorization: good).status, 200, target)
            XCTAssertEqual(get(app, target, authorization: "basic  YWxpY2U6c2VjcmV0IHBhc3M=").status, 200, target)
        }
        XCTAssertEqual(get(app, "/healthz").status, 200)
        XCTAssertEqual(get(app, "/metrics").status, 200)
    }
}
