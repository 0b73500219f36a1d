import ByteCoding
import HTTPServer
import PushCore
import XCTest
@testable import PushAPI

/// The routes in-process (no sockets): request in, response out.
final class EmulatorAppTests: XCTestCase {
    private let app = EmulatorApp(settings: .init(), wallTime: { 1_795_300_000_000 })

    private func call(_ method: String, _ target: String, _ body: String = "", bearer: Bool = true) -> (Int, JSONValue?) {
        var headers = HTTPHeaders()
        if bearer { headers.add("authorization", "Bearer test") }
        let response = app.handle(HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
        guard case .bytes(let bytes) = response.body else { return (response.status, nil) }
        return (response.status, bytes.isEmpty ? nil : try? JSONParser.parse(bytes))
    }

    private func register() -> String {
        let (status, device) = call("POST", "/emulator/v1/projects/p/devices", #"{"bundleId":"com.acme.app"}"#)
        XCTAssertEqual(status, 201)
        return device?["token"]?.stringValue ?? ""
    }

    func testSendThenConnectDeliversTheConvertedPayload() {
        let token = register()
        let (status, body) = call("POST", "/v1/projects/p/messages:send",
                                  #"{"message":{"token":"\#(token)","notification":{"title":"T"},"data":{"k":"v"}}}"#)
        XCTAssertEqual(status, 200)
        let name = body?["name"]?.stringValue ?? ""
        XCTAssertTrue(name.hasPrefix("projects/p/messages/"))
        let (_, connected) = call("POST", "/emulator/v1/projects/p/devices/\(token):connect")
        let event = connected?["events"]?.arrayValue?.first
        XCTAssertEqual(event?["messageName"]?.stringValue, name)
        XCTAssertEqual(event?["payload"]?["k"], .string("v"))
        XCTAssertEqual(event?["payload"]?["aps"]?["alert"]?["title"], .string("T"))
        XCTAssertEqual(event?["headers"]?["apns-topic"], .string("com.acme.app"))
    }

    func testOversizedPayloadAfterConversionIsRejected() {
        let token = register()
        let big = String(repeating: "x", count: 4000)
        let (status, body) = call("POST", "/v1/projects/p/messages:send",
                                  #"{"message":{"token":"\#(token)","data":{"a":"\#(big)","b":"\#(big)"}}}"#)
        XCTAssertEqual(status, 400)
        XCTAssertEqual(body?["error"]?["status"], .string("INVALID_ARGUMENT"))
        XCTAssertEqual(call("POST", "/emulator/v1/projects/p/devices/\(token):connect").1?["events"], .array([]))
    }

    /// The route reads a body as `FCMSendRequest(body:)` does: no body has no recipient, a body
    /// of whitespace alone is invalid JSON.
    func testSendAnswersEmptyAndWhitespaceOnlyBodiesAsTheRequestParserDoes() {
        for body in ["", " \n\t"] {
            let (status, answer) = call("POST", "/v1/projects/p/messages:send", body)
            XCTAssertEqual(status, 400, body.debugDescription)
            var expected = ""
            do {
                _ = try FCMSendRequest(body: Array(body.utf8))
            } catch {
                expected = error.message
            }
            XCTAssertEqual(answer?["error"]?["message"]?.stringValue, expected, body.debugDescription)
        }
        XCTAssertEqual(call("POST", "/v1/projects/p/messages:send", "").1?["error"]?["message"]?.stringValue,
                       "Recipient of the message is not set.")
    }

    func testAuthModeAnyRequiresBearer() {
        let (status, body) = call("POST", "/v1/projects/p/messages:send", #"{"message":{"token":"a"}}"#, bearer: false)
        XCTAssertEqual(status, 401)
        XCTAssertEqual(body?["error"]?["details"]?.arrayValue?.first?["reason"], .string("CREDENTIALS_MISSING"))
    }

    func testUnknownRouteAndWrongMethodUseGoogleErrors() {
        let (missing, body) = call("GET", "/v2/nothing")
        XCTAssertEqual(missing, 404)
        XCTAssertEqual(body?["error"]?["status"], .string("NOT_FOUND"))
        XCTAssertEqual(call("GET", "/v1/projects/p/messages:send").0, 405)
    }

    func testDeviceListPagingAndUnknownFields() {
        for _ in 0..<3 { _ = register() }
        let (status, page) = call("GET", "/emulator/v1/projects/p/devices?pageSize=2")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(page?["devices"]?.arrayValue?.count, 2)
        let next = page?["nextPageToken"]?.stringValue ?? ""
        XCTAssertEqual(call("GET", "/emulator/v1/projects/p/devices?pageSize=2&pageToken=\(next)").1?["devices"]?.arrayValue?.count, 1)
        XCTAssertEqual(call("POST", "/emulator/v1/projects/p/devices", #"{"colour":"red"}"#).0, 400)
        XCTAssertEqual(call("PATCH", "/emulator/v1/projects/p/devices/nope", #"{"appState":"foreground"}"#).0, 404)
        XCTAssertEqual(call("PATCH", "/emulator/v1/projects/p/devices/nope", #"{"appState":"asleep"}"#).0, 400)
    }

    func testMessageLogFiltersAndClear() {
        let token = register()
        XCTAssertEqual(call("POST", "/v1/projects/p/messages:send", #"{"message":{"token":"\#(token)","data":{"a":"b"}}}"#).0, 200)
        XCTAssertEqual(call("GET", "/emulator/v1/projects/p/messages?state=pending").1?["messages"]?.arrayValue?.count, 1)
        XCTAssertEqual(call("GET", "/emulator/v1/projects/p/messages?state=delivered").1?["messages"]?.arrayValue?.count, 0)
        XCTAssertEqual(call("GET", "/emulator/v1/projects/p/messages?state=bogus").0, 400)
        XCTAssertEqual(call("DELETE", "/emulator/v1/projects/p/messages").0, 200)
        XCTAssertEqual(call("GET", "/emulator/v1/projects/p/messages").1?["messages"]?.arrayValue?.count, 0)
    }
}
