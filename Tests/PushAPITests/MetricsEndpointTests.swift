import HTTPServer
import XCTest
@testable import PushAPI

/// `/metrics` in-process: the counters the router's observer moves and the gauges read at a scrape.
final class MetricsEndpointTests: XCTestCase {
    private let app = EmulatorApp(settings: .init(), wallTime: { 1_795_300_000_000 })

    private func metrics() -> [String] {
        let response = app.handle(HTTPRequest(method: "GET", target: "/metrics"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], MetricsEndpoint.contentType)
        guard case .bytes(let bytes) = response.body else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testRequestsCountUnderTheirTemplateAndSendsUnderTheirOutcome() {
        var headers = HTTPHeaders()
        headers.add("authorization", "Bearer test")
        for _ in 0..<2 { _ = app.handle(HTTPRequest(method: "GET", target: "/healthz")) }
        _ = app.handle(HTTPRequest(method: "BREW", target: "/no/such/7"))
        _ = app.handle(HTTPRequest(
            method: "POST", target: "/v1/projects/p/messages:send", headers: headers, body: Array(#"{"message":{}}"#.utf8)))
        let lines = metrics()
        XCTAssertTrue(lines.contains(#"push_emulator_http_requests_total{route="/healthz",method="GET",status="200"} 2"#), "\(lines)")
        XCTAssertTrue(lines.contains(#"push_emulator_http_requests_total{route="(unmatched)",method="OTHER",status="404"} 1"#))
        XCTAssertTrue(lines.contains(
            #"push_emulator_http_requests_total{route="/v1/projects/{project}/messages:send",method="POST",status="400"} 1"#))
        XCTAssertTrue(lines.contains(#"push_emulator_sends_total{origin="fcm",outcome="invalid"} 1"#))
        XCTAssertTrue(lines.contains(#"push_emulator_deliveries{state="pending"} 0.0"#))
        XCTAssertFalse(lines.contains { $0.contains("/no/such") })
    }
}
