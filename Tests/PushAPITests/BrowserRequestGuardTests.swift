import HTTPServer
import XCTest
@testable import PushAPI

/// Which requests to the emulator's own API the browser guard refuses.
final class BrowserRequestGuardTests: XCTestCase {
    private let guardian = BrowserRequestGuard(hostNames: ["push-emulator"])

    private func refused(
        _ method: String, _ path: String = "/emulator/v1/projects/p/devices", host: String = "localhost:9499",
        headers: [(String, String)] = []
    ) -> Bool {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name, value) }
        var request = HTTPRequest(method: method, target: path, headers: fields, body: [])
        request.authority = host
        return guardian.refusal(request) != nil
    }

    func testRequestsThatAreNotABrowsersPassUnderAnyNameNoDNSCanRebind() {
        XCTAssertFalse(refused("POST"))
        XCTAssertFalse(refused("DELETE", "/emulator/v1/state", host: "push-emulator:9499"))
        XCTAssertFalse(refused("DELETE", "/emulator/v1/state", host: "emulator.:9499"))
        XCTAssertFalse(refused("GET", "/emulator/v1/state", host: ""))
        // A rebinding page's same-origin read carries no Origin and, over plain HTTP, no Sec-Fetch-*.
        XCTAssertTrue(refused("GET", "/emulator/v1/state", host: "anything.example:9499"))
        XCTAssertTrue(refused("GET", "/emulator/v1/state", host: "anything.example.:9499"))
    }

    func testABrowserMayChangeStateOnlyFromTheEmulatorsOwnPages() {
        XCTAssertFalse(refused("POST", headers: [("origin", "http://localhost:9499")]))
        XCTAssertFalse(refused("POST", host: "127.0.0.1:9499", headers: [("origin", "http://127.0.0.1:9499"), ("sec-fetch-site", "same-origin")]))
        XCTAssertFalse(refused("POST", host: "[::1]:9499", headers: [("origin", "http://[::1]:9499")]))
        XCTAssertFalse(refused("POST", host: "push-emulator:9499", headers: [("origin", "http://push-emulator:9499")]))
        XCTAssertFalse(refused("POST", host: "localhost", headers: [("origin", "http://localhost")]))
        XCTAssertFalse(refused("POST", host: "localhost:443", headers: [("origin", "https://localhost")]))
        XCTAssertTrue(refused("POST", headers: [("origin", "http://evil.example")]))
        XCTAssertTrue(refused("POST", headers: [("origin", "http://localhost:9500")]))
        XCTAssertTrue(refused("POST", headers: [("origin", "null")]))
        XCTAssertTrue(refused("DELETE", headers: [("sec-fetch-site", "cross-site")]))
        XCTAssertTrue(refused("PATCH", headers: [("sec-fetch-site", "same-site"), ("origin", "http://localhost:9499")]))
    }

    func testABrowserMayReadOnlyFromTheEmulatorsOwnPages() {
        // Reads change state too: `:stream` delivers, and it and `/events` take bounded places.
        XCTAssertTrue(refused("GET", headers: [("origin", "http://evil.example")]))
        XCTAssertTrue(refused("GET", headers: [("sec-fetch-site", "cross-site")]))
        XCTAssertFalse(refused("GET", headers: [("origin", "http://localhost:9499")]))
        XCTAssertFalse(refused("GET", host: "app.localhost:9499", headers: [("sec-fetch-site", "none")]))
        XCTAssertTrue(refused("GET", "/emulator/v1/state", host: "rebound.example:9499", headers: [("sec-fetch-site", "same-origin")]))
        XCTAssertTrue(refused("POST", host: "rebound.example:9499", headers: [("origin", "http://rebound.example:9499")]))
    }

    func testOnlyTheEmulatorsOwnAPIIsGuarded() {
        XCTAssertFalse(refused("POST", "/v1/projects/p/messages:send", host: "fcm.googleapis.com", headers: [("origin", "http://evil.example")]))
        XCTAssertFalse(refused("POST", "/3/device/abc", host: "evil.example", headers: [("sec-fetch-site", "cross-site")]))
    }

    func testAddresses() {
        for address in ["127.0.0.1", "10.0.0.255", "::1", "fe80::1", "::ffff:127.0.0.1"] {
            XCTAssertTrue(RequestHostNames.isIPAddress(address), address)
        }
        for name in ["127.0.0.256", "1.2.3", "1.2.3.4.5", "localhost", "a.b.c.d", "", "1..2.3"] {
            XCTAssertFalse(RequestHostNames.isIPAddress(name), name)
        }
        // A digit and a combining mark are one Character that sorts among the digits: it trapped.
        XCTAssertFalse(RequestHostNames.isIPAddress("11.0.0.3\u{7FD}"))
        XCTAssertFalse(RequestHostNames.isIPAddress("1\u{301}.0.0.1"))
        XCTAssertFalse(RequestHostNames.isIPAddress("::1\u{301}"))
        XCTAssertEqual(RequestHostNames.host(ofAuthority: "[::1]:9499"), "::1")
        XCTAssertEqual(RequestHostNames.host(ofAuthority: "localhost:9499"), "localhost")
        XCTAssertEqual(RequestHostNames.host(ofAuthority: "localhost"), "localhost")
        XCTAssertEqual(RequestHostNames.authority(ofOrigin: "http://localhost:9499"), "localhost:9499")
        XCTAssertNil(RequestHostNames.authority(ofOrigin: "null"))
        XCTAssertNil(RequestHostNames.authority(ofOrigin: "http://a/b"))
    }
}
