import XCTest
@testable import HTTPServer

final class HTTP1ParserFramingTests: XCTestCase {
    private func error(withHeaders headers: String, version: String = "1.1") -> HTTP1ParseError? {
        http1Error("POST / HTTP/\(version)\r\nHost: h\r\n\(headers)\r\nabc")
    }

    func testContentLengthMustBeDigitsOnly() {
        for value in ["+3", "-3", "0x3", "3 3", "3,3", "3, 3", "3.0", "three", ""] {
            XCTAssertEqual(error(withHeaders: "Content-Length: \(value)\r\n"), .badRequest("invalid Content-Length"), value)
        }
    }

    func testContentLengthMayHaveLeadingZerosAndSurroundingWhitespace() {
        XCTAssertEqual(singleHTTP1Request("POST / HTTP/1.1\r\nContent-Length: \t003 \r\n\r\nabc")?.body, "abc")
    }

    func testRepeatedContentLengthMustAgree() {
        XCTAssertEqual(singleHTTP1Request("POST / HTTP/1.1\r\nContent-Length: 3\r\ncontent-length: 03\r\n\r\nabc")?.body, "abc")
        XCTAssertEqual(error(withHeaders: "Content-Length: 3\r\nContent-Length: 4\r\n"), .badRequest("conflicting Content-Length values"))
    }

    func testContentLengthWithTransferEncodingIsRejected() {
        let both = "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n"
        XCTAssertEqual(error(withHeaders: both), .badRequest("both Content-Length and Transfer-Encoding"))
        let reversed = "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n"
        XCTAssertEqual(error(withHeaders: reversed), .badRequest("both Content-Length and Transfer-Encoding"))
    }

    func testTransferEncodingMustBeExactlyChunked() {
        XCTAssertEqual(error(withHeaders: "Transfer-Encoding: gzip\r\n"), .notImplemented("Transfer-Encoding gzip"))
        XCTAssertEqual(error(withHeaders: "Transfer-Encoding: gzip, chunked\r\n"), .notImplemented("Transfer-Encoding gzip"))
        XCTAssertEqual(error(withHeaders: "Transfer-Encoding: chunked, identity\r\n"), .notImplemented("Transfer-Encoding identity"))
        XCTAssertEqual(error(withHeaders: "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"), .notImplemented("Transfer-Encoding gzip"))
        XCTAssertEqual(error(withHeaders: "Transfer-Encoding: chunked, chunked\r\n"), .badRequest("chunked applied more than once"))
        XCTAssertEqual(error(withHeaders: "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n"), .badRequest("chunked applied more than once"))
        XCTAssertEqual(error(withHeaders: "Transfer-Encoding: \r\n"), .badRequest("empty Transfer-Encoding"))
        XCTAssertEqual(error(withHeaders: "Transfer-Encoding: chunked\r\n", version: "1.0"), .badRequest("Transfer-Encoding in an HTTP/1.0 request"))
        XCTAssertEqual(singleHTTP1Request("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n")?.body, "x")
    }

    func testDeclaredBodyOverTheLimitFailsAtTheHeadBeforeAnyBodyArrives() throws {
        var parser = HTTP1Parser(limits: .init(maxBodyBytes: 10))
        XCTAssertThrowsError(try Array("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n".utf8).withUnsafeBytes { try parser.parse($0) }) {
            XCTAssertEqual($0 as? HTTP1ParseError, .bodyTooLarge)
        }
        XCTAssertEqual(parseHTTP1("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n").error, .bodyTooLarge)
        XCTAssertEqual(singleHTTP1Request("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789")?.body, "0123456789")
    }

    func testContentLengthZeroEndsAtTheHead() {
        let outcome = parseHTTP1("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\nGET / HTTP/1.1\r\n\r\n")
        XCTAssertEqual(outcome.requests.map(\.ended), [true, true])
        XCTAssertEqual(outcome.requests.map(\.body), ["", ""])
    }
}
