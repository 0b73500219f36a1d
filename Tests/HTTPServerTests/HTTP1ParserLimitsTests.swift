import XCTest
@testable import HTTPServer

final class HTTP1ParserLimitsTests: XCTestCase {
    func testRequestLineOverTheLimitIsURITooLong() {
        let limits = HTTP1Parser.Limits(maxRequestLineBytes: 64)
        let path = { (length: Int) in "/" + String(repeating: "a", count: length - 1) }
        // "GET " + target + " HTTP/1.1\r\n" is 15 bytes around the target.
        XCTAssertNil(http1Error("GET \(path(49)) HTTP/1.1\r\n\r\n", limits: limits))
        XCTAssertEqual(http1Error("GET \(path(50)) HTTP/1.1\r\n\r\n", limits: limits), .uriTooLong)
        // Without its line ending yet: rejected as soon as the bytes already held are over the limit.
        XCTAssertEqual(http1Error("GET \(path(60))", limits: limits), .uriTooLong)
        XCTAssertNil(http1Error("GET \(path(59))", limits: limits))
    }

    func testDefaultLimits() {
        let limits = HTTP1Parser.Limits()
        XCTAssertEqual(limits.maxHeaderBytes, 65_536)
        XCTAssertEqual(limits.maxBodyBytes, 1_048_576)
        XCTAssertEqual(limits.maxRequestLineBytes, 8_192)
        XCTAssertEqual(limits.maxHeaderCount, 100)
        let target = "/" + String(repeating: "a", count: 9_000)
        XCTAssertEqual(parseHTTP1("GET \(target) HTTP/1.1\r\n\r\n").error, .uriTooLong)
    }

    func testMoreThanTheMaximumHeaderLinesIsTooMany() {
        let lines = { (count: Int) in (0..<count).map { "X-\($0): v\r\n" }.joined() }
        XCTAssertEqual(singleHTTP1Request("GET / HTTP/1.1\r\n\(lines(100))\r\n")?.headers.count, 100)
        XCTAssertEqual(http1Error("GET / HTTP/1.1\r\n\(lines(101))\r\n"), .tooManyHeaderLines)
    }

    func testHeadOverTheByteLimitIsTooLarge() {
        let limits = HTTP1Parser.Limits(maxHeaderBytes: 100)
        let requestLine = "GET / HTTP/1.1\r\n"  // 16 bytes; the final CRLF is 2 more
        let header = { (length: Int) in "X: " + String(repeating: "v", count: length - 5) + "\r\n" }
        XCTAssertNil(http1Error(requestLine + header(82) + "\r\n", limits: limits))
        XCTAssertEqual(http1Error(requestLine + header(83) + "\r\n", limits: limits), .headersTooLarge)
        // The limit holds while the head is still arriving, and for the final empty line too.
        XCTAssertEqual(http1Error(requestLine + "X: " + String(repeating: "v", count: 200), limits: limits), .headersTooLarge)
        XCTAssertEqual(http1Error(requestLine + header(83) + "\r", limits: limits), .headersTooLarge)
        // Empty lines before the request line count.
        XCTAssertEqual(http1Error("\r\n" + requestLine + header(82) + "\r\n", limits: limits), .headersTooLarge)
    }

    func testLimitsApplyToEachRequestOnItsOwn() {
        let limits = HTTP1Parser.Limits(maxHeaderBytes: 60, maxBodyBytes: 4)
        let request = "POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd"
        let outcome = parseHTTP1(String(repeating: request, count: 5), limits: limits)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.requests.count, 5)
        let chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n"
        XCTAssertEqual(parseHTTP1(String(repeating: chunked, count: 3), limits: limits).requests.map(\.body), ["abcd", "abcd", "abcd"])
    }
}
