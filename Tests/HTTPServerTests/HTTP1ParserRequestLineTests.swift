import XCTest
@testable import HTTPServer

final class HTTP1ParserRequestLineTests: XCTestCase {
    func testVersions() {
        XCTAssertEqual(singleHTTP1Request("GET / HTTP/1.0\r\n\r\n")?.version, .http10)
        XCTAssertEqual(singleHTTP1Request("GET / HTTP/1.1\r\n\r\n")?.version, .http11)
        // RFC 9110 §2.5: a higher minor version of a major version we implement is served as its highest.
        XCTAssertEqual(singleHTTP1Request("GET / HTTP/1.2\r\n\r\n")?.version, .http11)
    }

    func testOtherMajorVersionsAreNotSupported() {
        for line in ["GET / HTTP/2.0", "PRI * HTTP/2.0", "GET / HTTP/0.9", "GET / HTTP/3.1"] {
            XCTAssertEqual(http1Error("\(line)\r\n\r\n"), .versionNotSupported, line)
        }
    }

    func testOtherTargetForms() {
        XCTAssertEqual(singleHTTP1Request("OPTIONS * HTTP/1.1\r\n\r\n")?.target, "*")
        XCTAssertEqual(singleHTTP1Request("CONNECT h:443 HTTP/1.1\r\n\r\n")?.method, "CONNECT")
        XCTAssertEqual(singleHTTP1Request("CONNECT h:443 HTTP/1.1\r\n\r\n")?.target, "h:443")
    }

    /// An absolute-form target (what a client sends to a proxy) is served as its path and query,
    /// for the host it names, which replaces `Host` (RFC 9112 §3.2.2); it was routed as it stood,
    /// 404.
    func testAbsoluteFormTargetsAreServedAsTheirPath() {
        let cases: [(String, String, String)] = [
            ("http://h:1/p?q", "/p?q", "h:1"),
            ("HTTPS://fcm.googleapis.com/v1/projects/p/messages:send", "/v1/projects/p/messages:send", "fcm.googleapis.com"),
            ("http://h", "/", "h"),
            ("http://h?x=1", "/?x=1", "h"),
            ("hTtP://[::1]:9499/healthz", "/healthz", "[::1]:9499"),
        ]
        for (target, path, authority) in cases {
            let head = singleHTTP1Request("GET \(target) HTTP/1.1\r\nHost: other\r\nX: y\r\n\r\n")
            XCTAssertEqual(head?.target, path, target)
            XCTAssertEqual(head?.headers.sorted(), ["host: \(authority)", "x: y"], target)
            XCTAssertEqual(singleHTTP1Request("GET \(target) HTTP/1.0\r\n\r\n")?.headers, ["host: \(authority)"], target)
        }
        XCTAssertEqual(singleHTTP1Request("GET /p HTTP/1.1\r\nHost: h:2\r\n\r\n")?.headers, ["host: h:2"])
        // Not the absolute form: kept as sent.
        for target in ["httpx://h/p", "http:/h/p", "ftp://h/p", "http:", "/http://h/p"] {
            XCTAssertEqual(singleHTTP1Request("GET \(target) HTTP/1.1\r\n\r\n")?.target, target, target)
        }
        for target in ["http:///p", "https://?q", "http://"] {
            XCTAssertEqual(http1Error("GET \(target) HTTP/1.1\r\n\r\n"), .badRequest("absolute-form target without a host"), target)
        }
    }

    func testMalformedRequestLinesAreBadRequests() {
        let lines = [
            "GET /",                     // HTTP/0.9 style, no version
            "GET / HTTP/1.1 ",           // trailing space
            "GET  / HTTP/1.1",           // two spaces
            " GET / HTTP/1.1",           // leading space
            "GET / http/1.1",            // version name is case-sensitive
            "GET / HTTP/1",
            "GET / HTTP/1.10",
            "G(T / HTTP/1.1",            // method not a token
            "GET /a\u{7F}b HTTP/1.1",    // control character in target
            "GET /caf\u{E9} HTTP/1.1",   // raw non-ASCII in target
            "GET /a\tb HTTP/1.1",
            "GET\t/ HTTP/1.1",
        ]
        for line in lines {
            guard case .badRequest = http1Error("\(line)\r\n\r\n") else { return XCTFail("accepted \(line.debugDescription)") }
        }
    }

    func testBareLFAndStrayCRAreRejected() {
        XCTAssertEqual(http1Error("GET / HTTP/1.1\n\n"), .badRequest("line not terminated by CRLF"))
        XCTAssertEqual(http1Error("GET / HTTP/1.1\r\nHost: h\n\r\n"), .badRequest("line not terminated by CRLF"))
        XCTAssertEqual(http1Error("\nGET / HTTP/1.1\r\n\r\n"), .badRequest("line not terminated by CRLF"))
        XCTAssertEqual(http1Error("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n"), .badRequest("invalid character in header value"))
        XCTAssertEqual(http1Error("GET /\r HTTP/1.1\r\n\r\n"), .badRequest("invalid character in request target"))
    }
}
