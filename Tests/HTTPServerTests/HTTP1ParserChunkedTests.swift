import XCTest
@testable import HTTPServer

final class HTTP1ParserChunkedTests: XCTestCase {
    private let head = "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"

    func testChunksWithExtensionsAndTrailersAreDecoded() {
        let body = "5;name=value\r\nhello\r\n1 ; a ; b=\"q s\"\r\n \r\nA\r\n0123456789\r\nf\r\n0123456789ABCDE\r\n"
            + "0;last\r\nX-Checksum: abc\r\nX-Other: d\r\n\r\n"
        let request = singleHTTP1Request(head + body)
        XCTAssertEqual(request?.body, "hello 01234567890123456789ABCDE")
        XCTAssertEqual(request?.headers.count, 2, "trailers are not added to the head")
    }

    func testChunkedRequestIsFollowedByThePipelinedOne() {
        let outcome = parseHTTP1(head + "2\r\nab\r\n0\r\n\r\nGET /next HTTP/1.1\r\n\r\n", pieceSize: 5)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(outcome.requests.map(\.target), ["/c", "/next"])
        XCTAssertEqual(outcome.requests.map(\.body), ["ab", ""])
    }

    func testChunkDataIsDeliveredBeforeTheChunkEnds() throws {
        var parser = HTTP1Parser()
        let (_, events) = try Array((head + "10\r\nabc").utf8).withUnsafeBytes { try parser.parse($0) }
        guard case .body(let piece) = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(piece, Array("abc".utf8))
        XCTAssertTrue(parser.isMidRequest)
    }

    func testMalformedChunkSizesAreBadRequests() {
        for line in ["", "x", "-1", "+1", "0x1", "1 x", "1 ", " 1", "1;a\u{1}"] {
            let error = http1Error(head + "\(line)\r\na\r\n0\r\n\r\n")
            guard case .badRequest = error else { return XCTFail("accepted chunk size line \(line.debugDescription): \(String(describing: error))") }
        }
        XCTAssertEqual(http1Error(head + "1\na\r\n0\r\n\r\n"), .badRequest("line not terminated by CRLF"))
    }

    func testChunkExtensionsAreCheckedForControlCharactersOnly() {
        for control in ["\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\r"] {
            XCTAssertEqual(http1Error(head + "1;a=\(control)b\r\nz\r\n0\r\n\r\n"), .badRequest("invalid chunk extension"))
        }
        // Tabs, quotes, bytes beyond ASCII: an extension is ignored, not parsed.
        XCTAssertEqual(singleHTTP1Request(head + "1 ;a=\"b c\"\t;é\r\nz\r\n0\r\n\r\n")?.body, "z")
    }

    func testChunkSizeOverflowIsABadRequest() {
        XCTAssertEqual(http1Error(head + "10000000000000000\r\n"), .badRequest("chunk size overflow"))
        XCTAssertEqual(http1Error(head + "ffffffffffffffffff\r\n"), .badRequest("chunk size overflow"))
        // Leading zeros are not an overflow.
        XCTAssertEqual(singleHTTP1Request(head + "00000000000000000001\r\nz\r\n0\r\n\r\n")?.body, "z")
    }

    func testChunkDataMustBeFollowedByCRLF() {
        XCTAssertEqual(http1Error(head + "2\r\nabc\r\n0\r\n\r\n"), .badRequest("missing CRLF after chunk data"))
        XCTAssertEqual(http1Error(head + "2\r\nab\n0\r\n\r\n"), .badRequest("missing CRLF after chunk data"))
    }

    func testInvalidTrailersAreRejected() {
        XCTAssertEqual(http1Error(head + "0\r\nBad Trailer: x\r\n\r\n"), .badRequest("whitespace before colon in header"))
        XCTAssertEqual(http1Error(head + "0\r\n folded\r\n\r\n"), .badRequest("obsolete line folding"))
    }

    func testTrailersAreBounded() {
        let limits = HTTP1Parser.Limits(maxHeaderBytes: 200, maxHeaderCount: 3)
        XCTAssertNil(http1Error(head + "0\r\n" + String(repeating: "T: v\r\n", count: 3) + "\r\n", limits: limits))
        XCTAssertEqual(http1Error(head + "0\r\n" + String(repeating: "T: v\r\n", count: 4) + "\r\n", limits: limits), .tooManyHeaderLines)
        XCTAssertEqual(http1Error(head + "0\r\nT: " + String(repeating: "v", count: 200) + "\r\n\r\n", limits: limits), .headersTooLarge)
    }

    func testChunkedBodyOverTheLimitIsRejectedAtTheChunkSize() throws {
        let limits = HTTP1Parser.Limits(maxBodyBytes: 10)
        XCTAssertEqual(http1Error(head + "6\r\nabcdef\r\n5\r\n", limits: limits), .bodyTooLarge)
        XCTAssertNil(http1Error(head + "6\r\nabcdef\r\n4\r\nabcd\r\n0\r\n\r\n", limits: limits))
        XCTAssertEqual(http1Error(head + "7fffffffffffffff\r\n", limits: limits), .bodyTooLarge)
    }

    func testLongChunkExtensionsAreBounded() {
        let long = "1;" + String(repeating: "e", count: HTTP1Parser.maxChunkSizeLineBytes)
        XCTAssertEqual(http1Error(head + long + "\r\nx\r\n0\r\n\r\n"), .badRequest("chunk size line too long"))
        XCTAssertEqual(http1Error(head + long), .badRequest("chunk size line too long"))
    }
}
