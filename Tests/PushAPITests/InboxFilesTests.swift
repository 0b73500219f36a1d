import Foundation
import HTTPServer
import XCTest
@testable import PushAPI

/// The web inbox's files: compiled in from inbox/, served under /emulator/ui/ with the policy
/// that keeps the pages to the emulator itself, and `/` sends a browser there.
final class InboxFilesTests: XCTestCase {
    private let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("inbox")

    func testCompiledFilesAreTheInboxFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(InboxFiles.files.keys.sorted(), names, "run scripts/embed-inbox.sh")
        for name in names {
            let onDisk = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(InboxFiles.files[name] == onDisk, "\(name) is out of date: run scripts/embed-inbox.sh")
        }
    }

    private func get(_ app: EmulatorApp, _ target: String, accept: String? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let accept { headers.set("accept", accept) }
        return app.handle(HTTPRequest(method: "GET", target: target, headers: headers, body: []))
    }

    func testEveryFileIsServedWithItsTypeAndThePolicy() {
        let app = EmulatorApp(settings: .init())
        for (name, text) in InboxFiles.files {
            let response = get(app, "/emulator/ui/" + (name == "index.html" ? "" : name))
            XCTAssertEqual(response.status, 200, name)
            guard case .bytes(let bytes) = response.body else { return XCTFail("no body for \(name)") }
            XCTAssertEqual(bytes, Array(text.utf8), name)
            XCTAssertEqual(response.headers["content-security-policy"], InboxRoutes.contentSecurityPolicy, name)
            XCTAssertEqual(response.headers["x-content-type-options"], "nosniff", name)
            let expected = name.hasSuffix(".js") ? "text/javascript" : name.hasSuffix(".css") ? "text/css" : "text/html"
            XCTAssertEqual(response.headers["content-type"]?.hasPrefix(expected), true, name)
        }
        XCTAssertTrue(InboxRoutes.contentSecurityPolicy.hasPrefix("default-src 'self';"))
        XCTAssertEqual(get(app, "/emulator/ui/nothing.js").status, 404)
    }

    func testRootSendsBrowsersToTheInboxAndAPIClientsA404() {
        let app = EmulatorApp(settings: .init())
        let browser = get(app, "/", accept: "text/html,application/xhtml+xml,*/*;q=0.8")
        XCTAssertEqual(browser.status, 302)
        XCTAssertEqual(browser.headers["location"], "/emulator/ui/")
        XCTAssertEqual(get(app, "/emulator/ui").headers["location"], "/emulator/ui/")
        XCTAssertEqual(get(app, "/", accept: "application/json").status, 404)
        XCTAssertEqual(get(app, "/").status, 404)
    }
}
