import XCTest
@testable import HTTPServer

final class HTTP1ParserHeaderTests: XCTestCase {
    private func error(inHeaderLine line: String) -> HTTP1ParseError? {
        http1Error("GET / HTTP/1.1\r\nHost: h\r\n\(line)\r\n\r\n")
    }

    func testInvalidFieldLinesAreBadRequests() {
        XCTAssertEqual(error(inHeaderLine: "Name : v"), .badRequest("whitespace before colon in header"))
        XCTAssertEqual(error(inHeaderLine: "Name\t: v"), .badRequest("whitespace before colon in header"))
        XCTAssertEqual(error(inHeaderLine: " folded"), .badRequest("obsolete line folding"))
        XCTAssertEqual(error(inHeaderLine: "\tfolded"), .badRequest("obsolete line folding"))
        XCTAssertEqual(error(inHeaderLine: ": v"), .badRequest("empty header name"))
        XCTAssertEqual(error(inHeaderLine: "NoColon"), .badRequest("header line without a colon"))
        XCTAssertEqual(error(inHeaderLine: "Na(me: v"), .badRequest("invalid character in header name"))
        XCTAssertEqual(error(inHeaderLine: "Ná: v"), .badRequest("invalid character in header name"))
        for control in ["\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\r"] {
            XCTAssertEqual(error(inHeaderLine: "X: a\(control)b"), .badRequest("invalid character in header value"))
        }
    }

    func testFoldingRightAfterTheRequestLineIsRejected() {
        XCTAssertEqual(http1Error("GET / HTTP/1.1\r\n Host: h\r\n\r\n"), .badRequest("obsolete line folding"))
    }

    func testValuesMayHoldTabsSpacesAndNonASCIIAndMayBeEmpty() {
        let request = singleHTTP1Request("GET / HTTP/1.1\r\nX-A: a\tb c\r\nX-B: caf\u{E9}\r\nX-C:\r\nX-D:   \r\n\r\n")
        XCTAssertEqual(request?.headers, ["x-a: a\tb c", "x-b: caf\u{E9}", "x-c: ", "x-d: "])
    }

    func testSeveralHostFieldsAreRejected() {
        XCTAssertEqual(http1Error("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n"), .badRequest("multiple Host headers"))
    }

    func testKeepAliveFollowsVersionAndConnectionTokens() {
        let table: [(version: String, connection: String?, keepAlive: Bool)] = [
            ("1.1", nil, true),
            ("1.1", "close", false),
            ("1.1", "Close", false),
            ("1.1", "keep-alive", true),
            ("1.1", "keep-alive, close", false),
            ("1.1", "Upgrade, close", false),
            ("1.1", "foo", true),
            ("1.0", nil, false),
            ("1.0", "keep-alive", true),
            ("1.0", "Keep-Alive", true),
            ("1.0", " te , keep-alive ,", true),
            ("1.0", "close", false),
            ("1.0", "keep-alive, close", false),
            ("1.0", "keep-alives", false),
        ]
        for row in table {
            let connection = row.connection.map { "Connection: \($0)\r\n" } ?? ""
            let request = singleHTTP1Request("GET / HTTP/\(row.version)\r\n\(connection)\r\n")
            XCTAssertEqual(request?.keepAlive, row.keepAlive, "\(row)")
        }
    }

    func testKeepAliveTokensAreReadAcrossSeveralConnectionFields() {
        let request = singleHTTP1Request("GET / HTTP/1.1\r\nConnection: foo\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(request?.keepAlive, false)
    }

    func testExpectContinue() {
        XCTAssertEqual(singleHTTP1Request("POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx")?.expectsContinue, true)
        XCTAssertEqual(singleHTTP1Request("POST / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n")?.expectsContinue, false)
        XCTAssertEqual(singleHTTP1Request("POST / HTTP/1.1\r\n\r\n")?.expectsContinue, false)
        // RFC 9110 §10.1.1: ignored in HTTP/1.0.
        XCTAssertEqual(singleHTTP1Request("POST / HTTP/1.0\r\nExpect: 100-continue\r\n\r\n")?.expectsContinue, false)
    }

    func testUpgradeToH2CNeedsUpgradeConnectionAndExactlyOneSettingsField() {
        let settings = "HTTP2-Settings: AAMAAABkAARAAAAA\r\n"
        let table: [(head: String, upgrade: Bool)] = [
            ("Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n\(settings)", true),
            ("upgrade: H2C\r\nconnection: upgrade\r\nhttp2-settings: AAMAAABkAARAAAAA\r\n", true),
            ("Upgrade: websocket, h2c\r\nConnection: keep-alive\r\nConnection: upgrade\r\n\(settings)", true),
            ("Upgrade: h2c\r\n\(settings)", false),
            ("Connection: Upgrade\r\n\(settings)", false),
            ("Upgrade: h2c\r\nConnection: Upgrade\r\n", false),
            ("Upgrade: h2\r\nConnection: Upgrade\r\n\(settings)", false),
            ("Upgrade: h2c\r\nConnection: Upgrade\r\n\(settings)\(settings)", false),
        ]
        for row in table {
            let request = singleHTTP1Request("GET / HTTP/1.1\r\nHost: h\r\n\(row.head)\r\n")
            XCTAssertEqual(request?.upgradeToH2C, row.upgrade, row.head)
        }
        let http10 = singleHTTP1Request("GET / HTTP/1.0\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\(settings)\r\n")
        XCTAssertEqual(http10?.upgradeToH2C, false)
        XCTAssertEqual(http10?.http2Settings, "AAMAAABkAARAAAAA")
        XCTAssertNil(singleHTTP1Request("GET / HTTP/1.1\r\n\r\n")?.http2Settings)
    }

    func testUpgradeLeavesTheHTTP2BytesUnconsumed() throws {
        let head = "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAARAAAAA\r\n\r\n"
        let bytes = Array((head + "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").utf8)
        var parser = HTTP1Parser()
        let (consumed, events) = try bytes.withUnsafeBytes { try parser.parse($0) }
        XCTAssertEqual(consumed, head.utf8.count)
        guard case .head(let parsed) = events.first else { return XCTFail("\(events)") }
        XCTAssertTrue(parsed.upgradeToH2C)
        XCTAssertEqual(parsed.http2Settings, "AAMAAABkAARAAAAA")
    }
}
