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

    func testEachLoopCountsApartAndAScrapeAddsTheLoopsUp() {
        let app = EmulatorApp(settings: { var settings = EmulatorApp.Settings(); settings.loops = 4; return settings }())
        for loop in 0..<6 {
            for _ in 0...loop {
                var request = HTTPRequest(method: "GET", target: "/healthz")
                request.connection = ConnectionSession(serverName: nil, loop: loop)
                _ = app.handle(request)
            }
        }
        let response = app.handle(HTTPRequest(method: "GET", target: "/metrics"))
        guard case .bytes(let bytes) = response.body else { return XCTFail("no body") }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        // 1 + 2 + ... + 6 requests, from loops 0 to 5 (4 and 5 count in the tables of 0 and 1).
        XCTAssertEqual(lines.filter { $0.hasPrefix("push_emulator_http_requests_total{route=\"/healthz\"") },
                       [#"push_emulator_http_requests_total{route="/healthz",method="GET",status="200"} 21"#])
        XCTAssertEqual(lines.filter { $0.hasPrefix("# TYPE push_emulator_http_requests_total") }.count, 1)
    }

    func testTheTextFormatOfEachKindOfSample() {
        var text = PrometheusText()
        text.family("a_total", type: "counter")
        text.sample("a_total", ["route": "/x", "quote": "say \"hi\"\\\n"], count: 3)
        text.family("b", type: "gauge")
        text.sample("b", gauge: 2)
        XCTAssertEqual(text.text, """
            # TYPE a_total counter
            a_total{route="/x",quote="say \\"hi\\"\\\\\\n"} 3
            # TYPE b gauge
            b 2.0

            """)
    }
}
