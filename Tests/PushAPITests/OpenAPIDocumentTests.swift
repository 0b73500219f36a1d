import ByteCoding
import Foundation
import HTTPServer
import XCTest
@testable import PushAPI

/// The compiled-in OpenAPI document is docs/openapi.json, byte for byte, and is served.
final class OpenAPIDocumentTests: XCTestCase {
    func testCompiledDocumentIsDocsOpenAPIJSON() throws {
        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        let onDisk = try String(contentsOf: docs, encoding: .utf8)
        XCTAssertTrue(
            OpenAPIDocument.text == onDisk,
            "Sources/PushAPI/Generated/OpenAPIDocument.swift is out of date: run scripts/embed-openapi.sh")
    }

    func testDocumentIsServedAsJSON() throws {
        let app = EmulatorApp(settings: .init())
        let response = app.handle(HTTPRequest(method: "GET", target: "/emulator/v1/openapi.json", headers: HTTPHeaders(), body: []))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "application/json; charset=UTF-8")
        guard case .bytes(let bytes) = response.body else { return XCTFail("no body") }
        XCTAssertEqual(bytes, Array(OpenAPIDocument.text.utf8))
        XCTAssertEqual(try JSONParser.parse(bytes)["openapi"], .string("3.1.0"))
    }
}
