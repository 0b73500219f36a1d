import XCTest
@testable import HTTPServer

/// One request as a test sees it: head fields flattened, body pieces joined.
struct ParsedHTTP1Request: Equatable {
    var method: String
    var target: String
    var version: HTTP1Version
    var headers: [String]
    var keepAlive: Bool
    var expectsContinue: Bool
    var upgradeToH2C: Bool
    var http2Settings: String?
    var body = ""
    var ended = false
}

/// Everything a parser produced from a byte stream, and the error it stopped on, if any.
struct HTTP1ParseOutcome: Equatable {
    var requests: [ParsedHTTP1Request] = []
    var error: HTTP1ParseError?
}

/// Feeds `text` to a fresh parser in pieces of `pieceSize` bytes the way a connection does: bytes the
/// parser did not consume are kept and fed again with the next piece.
func parseHTTP1(_ text: String, pieceSize: Int = .max, limits: HTTP1Parser.Limits = .init()) -> HTTP1ParseOutcome {
    var parser = HTTP1Parser(limits: limits)
    var outcome = HTTP1ParseOutcome()
    let bytes = Array(text.utf8)
    var pending: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + min(pieceSize, bytes.count))
        pending += bytes[offset..<end]
        offset = end
        while !pending.isEmpty {
            do {
                let (consumed, events) = try pending.withUnsafeBytes { try parser.parse($0) }
                XCTAssertGreaterThan(consumed, 0, "a call with bytes must make progress")
                pending.removeFirst(consumed)
                for event in events {
                    switch event {
                    case .head(let head):
                        outcome.requests.append(ParsedHTTP1Request(
                            method: head.method, target: head.target, version: head.version,
                            headers: head.headers.map { "\($0.name): \($0.value)" },
                            keepAlive: head.keepAlive, expectsContinue: head.expectsContinue,
                            upgradeToH2C: head.upgradeToH2C, http2Settings: head.http2Settings))
                    case .body(let piece):
                        outcome.requests[outcome.requests.count - 1].body += String(decoding: piece, as: UTF8.self)
                    case .end:
                        outcome.requests[outcome.requests.count - 1].ended = true
                    }
                }
            } catch {
                outcome.error = error as? HTTP1ParseError
                return outcome
            }
        }
    }
    return outcome
}

extension HTTP1ParseOutcome {
    /// What must not depend on how the bytes were split: a call that throws returns no events, so
    /// after an error only the requests that ended before it are comparable.
    var independentOfSplitting: HTTP1ParseOutcome {
        error == nil ? self : HTTP1ParseOutcome(requests: requests.filter(\.ended), error: error)
    }
}

/// The error a parser stops on for `text`, checked to be the same whether fed whole or byte by byte.
func http1Error(_ text: String, limits: HTTP1Parser.Limits = .init(), file: StaticString = #filePath, line: UInt = #line) -> HTTP1ParseError? {
    let whole = parseHTTP1(text, limits: limits)
    XCTAssertEqual(whole.independentOfSplitting, parseHTTP1(text, pieceSize: 1, limits: limits).independentOfSplitting,
                   "byte-by-byte differs", file: file, line: line)
    return whole.error
}

/// The single complete request in `text`, failing the test otherwise.
func singleHTTP1Request(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ParsedHTTP1Request? {
    let outcome = parseHTTP1(text)
    XCTAssertEqual(outcome, parseHTTP1(text, pieceSize: 1), "byte-by-byte differs", file: file, line: line)
    XCTAssertNil(outcome.error, file: file, line: line)
    XCTAssertEqual(outcome.requests.count, 1, file: file, line: line)
    XCTAssertEqual(outcome.requests.first?.ended, true, file: file, line: line)
    return outcome.requests.first
}

final class HTTP1ParserTests: XCTestCase {
    func testSimpleGetGivesHeadInOrderWithTrimmedValuesAndAnEmptyBody() throws {
        var parser = HTTP1Parser()
        let text = "GET /v1/x?y=1 HTTP/1.1\r\nHost: localhost\r\nX-Thing: \t a b \t\r\nAccept:*/*\r\n\r\n"
        let (consumed, events) = try Array(text.utf8).withUnsafeBytes { try parser.parse($0) }
        XCTAssertEqual(consumed, text.utf8.count)
        XCTAssertEqual(events.count, 2)
        guard case .head(let head) = events[0], case .end = events[1] else { return XCTFail("\(events)") }
        XCTAssertEqual(head.method, "GET")
        XCTAssertEqual(head.target, "/v1/x?y=1")
        XCTAssertEqual(head.version, .http11)
        XCTAssertEqual(head.headers.map(\.name), ["host", "x-thing", "accept"], "names lower-cased")
        XCTAssertEqual(head.headers.map(\.value), ["localhost", "a b", "*/*"])
        XCTAssertEqual(head.headers["x-thing"], "a b")
        XCTAssertEqual(head.headers["HOST"], "localhost")
        XCTAssertNil(head.headers["X-Thin"])
        XCTAssertTrue(head.keepAlive)
        XCTAssertFalse(head.expectsContinue)
        XCTAssertFalse(head.upgradeToH2C)
        XCTAssertFalse(parser.isMidRequest)
    }

    func testHeaderLookupReturnsTheFirstOfRepeatedFields() throws {
        var parser = HTTP1Parser()
        let (_, events) = try Array("GET / HTTP/1.1\r\nAccept: a\r\nACCEPT: b\r\n\r\n".utf8).withUnsafeBytes { try parser.parse($0) }
        guard case .head(let head) = events.first else { return XCTFail("\(events)") }
        XCTAssertEqual(head.headers.map { "\($0.name): \($0.value)" }, ["accept: a", "accept: b"])
        XCTAssertEqual(head.headers["Accept"], "a")
    }

    func testContentLengthBodyIsDelivered() {
        let request = singleHTTP1Request("POST /send HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world")
        XCTAssertEqual(request?.method, "POST")
        XCTAssertEqual(request?.body, "hello world")
    }

    func testRequestsWithoutFramingHaveAnEmptyBodyWhateverTheMethod() {
        for method in ["GET", "HEAD", "POST", "DELETE"] {
            let outcome = parseHTTP1("\(method) / HTTP/1.1\r\nHost: h\r\n\r\n\(method) /2 HTTP/1.1\r\nHost: h\r\n\r\n")
            XCTAssertNil(outcome.error)
            XCTAssertEqual(outcome.requests.map(\.target), ["/", "/2"], method)
            XCTAssertEqual(outcome.requests.map(\.body), ["", ""], method)
        }
    }

    func testFeedingByteByByteGivesTheSameResultAsFeedingWhole() {
        let stream = "\r\nPOST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nabcde"
            + "POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nX-Trailer: t\r\n\r\n"
            + "GET /c HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
        let whole = parseHTTP1(stream)
        XCTAssertNil(whole.error)
        XCTAssertEqual(whole.requests.map(\.body), ["abcde", "abc0123456789abcdef", ""])
        for pieceSize in [1, 2, 3, 7, 16, 50] {
            XCTAssertEqual(parseHTTP1(stream, pieceSize: pieceSize), whole, "piece size \(pieceSize)")
        }
    }

    func testPipelinedRequestsStopAfterTheFirstEndWithAnExactConsumedCount() throws {
        let first = "POST /1 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
        let second = "GET /2 HTTP/1.1\r\n\r\n"
        let bytes = Array((first + second).utf8)
        var parser = HTTP1Parser()
        let (consumed, events) = try bytes.withUnsafeBytes { try parser.parse($0) }
        XCTAssertEqual(consumed, first.utf8.count)
        XCTAssertEqual(events.count, 3)
        guard case .end = events.last else { return XCTFail("\(events)") }
        let (consumedSecond, eventsSecond) = try bytes[consumed...].withUnsafeBytes { try parser.parse($0) }
        XCTAssertEqual(consumedSecond, second.utf8.count)
        guard case .head(let head) = eventsSecond.first else { return XCTFail("\(eventsSecond)") }
        XCTAssertEqual(head.target, "/2")
    }

    func testBodyPiecesAreDeliveredAsTheyArrive() throws {
        var parser = HTTP1Parser()
        let (_, headEvents) = try Array("PUT / HTTP/1.1\r\nContent-Length: 6\r\n\r\nab".utf8).withUnsafeBytes { try parser.parse($0) }
        XCTAssertEqual(headEvents.count, 2)
        guard case .body(let piece) = headEvents.last else { return XCTFail("\(headEvents)") }
        XCTAssertEqual(piece, Array("ab".utf8))
        XCTAssertTrue(parser.isMidRequest)
        let (consumed, events) = try Array("cdefGET".utf8).withUnsafeBytes { try parser.parse($0) }
        XCTAssertEqual(consumed, 4)
        XCTAssertEqual(events.count, 2)
        XCTAssertFalse(parser.isMidRequest)
    }

    func testPartialHeadIsBufferedWithoutEvents() throws {
        var parser = HTTP1Parser()
        let (consumed, events) = try Array("GET / HTTP/1.1\r\nHo".utf8).withUnsafeBytes { try parser.parse($0) }
        XCTAssertEqual(consumed, 18)
        XCTAssertTrue(events.isEmpty)
        XCTAssertTrue(parser.hasPartialHead)
        XCTAssertFalse(parser.isMidRequest)
        let (_, rest) = try Array("st: h\r\n\r\n".utf8).withUnsafeBytes { try parser.parse($0) }
        guard case .head(let head) = rest.first else { return XCTFail("\(rest)") }
        XCTAssertEqual(head.headers["host"], "h")
        XCTAssertFalse(parser.hasPartialHead)
    }

    func testEmptyLinesBeforeTheRequestLineAreSkipped() {
        let request = singleHTTP1Request("\r\n\r\nGET / HTTP/1.1\r\n\r\n")
        XCTAssertEqual(request?.target, "/")
    }

    func testParserStaysDeadAfterAnError() {
        var parser = HTTP1Parser()
        XCTAssertThrowsError(try Array("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n".utf8).withUnsafeBytes { try parser.parse($0) })
        XCTAssertThrowsError(try Array("GET / HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { try parser.parse($0) }) { error in
            XCTAssertEqual(error as? HTTP1ParseError, .badRequest("whitespace before colon in header"))
        }
    }

    func testErrorStatuses() {
        XCTAssertEqual(HTTP1ParseError.badRequest("x").status, 400)
        XCTAssertEqual(HTTP1ParseError.headersTooLarge.status, 431)
        XCTAssertEqual(HTTP1ParseError.tooManyHeaderLines.status, 431)
        XCTAssertEqual(HTTP1ParseError.bodyTooLarge.status, 413)
        XCTAssertEqual(HTTP1ParseError.uriTooLong.status, 414)
        XCTAssertEqual(HTTP1ParseError.notImplemented("x").status, 501)
        XCTAssertEqual(HTTP1ParseError.versionNotSupported.status, 505)
    }
}
