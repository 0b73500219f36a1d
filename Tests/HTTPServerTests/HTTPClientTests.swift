import Synchronization
import XCTest
@testable import HTTPServer

/// The emulator's own HTTP/1.1 client (webhooks, the health probe, the Swift test library): its
/// response parser, its URLs, and real requests to the server over TCP and TLS.
final class HTTPClientTests: XCTestCase {
    private func parse(_ text: String, ended: Bool = false) throws -> HTTPClientResponse? {
        try HTTPResponseParser.response(in: Array(text.utf8), ended: ended)
    }

    func testBodiesByEachFraming() throws {
        let cases: [(String, Bool, Int, String)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", false, 200, "hello"),
            ("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhello", false, 200, "he"),
            ("HTTP/1.0 500 Internal\r\n\r\nboom", true, 500, "boom"),
            ("HTTP/1.1 204 No Content\r\n\r\n", false, 204, ""),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1\r\n!\r\n0\r\nX-Trailer: 1\r\n\r\n", false, 200, "hello!"),
            ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", false, 201, "ok"),
            ("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", false, 200, ""),
        ]
        for (text, ended, status, body) in cases {
            let response = try XCTUnwrap(parse(text, ended: ended), text)
            XCTAssertEqual(response.status, status, text)
            XCTAssertEqual(response.text, body, text)
        }
        let response = try XCTUnwrap(parse("HTTP/1.1 200 OK\r\nX-Name:  spaced value \t\r\nContent-Length: 0\r\n\r\n"))
        XCTAssertEqual(response.header("x-NAME"), "spaced value")
    }

    func testIncompleteAnswersWaitUntilTheServerCloses() throws {
        for text in ["", "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel",
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", "HTTP/1.1 200 OK\r\n\r\nto the end"] {
            XCTAssertNil(try parse(text), text)
        }
        for text in ["", "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel",
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel"] {
            XCTAssertThrowsError(try parse(text, ended: true), text)
        }
    }

    func testMalformedAnswersAreRefused() {
        for text in ["HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 2000\r\n\r\n", "SSH-2.0-OpenSSH\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc"] {
            XCTAssertThrowsError(try parse(text, ended: true), text)
        }
        let huge = "HTTP/1.1 200 OK\r\n" + String(repeating: "X: y\r\n", count: 20_000)
        XCTAssertThrowsError(try parse(huge))
    }

    func testURLs() throws {
        let plain = try HTTPClientURL("http://example.test:8080/hook?x=1#frag")
        XCTAssertEqual([plain.host, plain.target, plain.hostHeader], ["example.test", "/hook?x=1", "example.test:8080"])
        XCTAssertEqual(plain.port, 8080)
        XCTAssertFalse(plain.usesTLS)
        let secure = try HTTPClientURL("HTTPS://[::1]")
        XCTAssertEqual([secure.host, secure.target, secure.hostHeader], ["::1", "/", "[::1]"])
        XCTAssertEqual(secure.port, 443)
        XCTAssertTrue(secure.usesTLS)
        XCTAssertEqual(try HTTPClientURL("http://h?q").target, "/?q")
        for text in ["ftp://x", "http://", "http://:80/", "http://x:0/", "http://x:70000/", "http://u@x/", "http://[::1/", "x",
                     "http://h/a b", "http://h/a\r\nX: y", "http://h/é"] {
            XCTAssertThrowsError(try HTTPClientURL(text), text)
        }
    }

    /// A server on a free port that echoes the method, path and body, over TCP and over TLS with a
    /// certificate from a local CA.
    private func withServer(_ body: (_ port: UInt16, _ authority: CertificateAuthority) throws -> Void) throws {
        let authority = try CertificateAuthority(directory: nil, names: ["localhost", "127.0.0.1"])
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 1
        configuration.accessLog = nil
        configuration.tls = try TLSContext(authority: authority)
        let server = try HTTPServer(configuration: configuration) { request in
            .text(201, "\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))")
        }
        defer { server.shutdown() }
        try body(server.port, authority)
    }

    func testRequestsOverTCPAndTLS() throws {
        try withServer { port, authority in
            let trusting = try HTTPClient(trust: .certificate(pem: authority.caPEM))
            for url in ["http://127.0.0.1:\(port)/a?b=1", "https://127.0.0.1:\(port)/a?b=1", "https://localhost:\(port)/a?b=1"] {
                let response = try trusting.send("POST", HTTPClientURL(url), headers: [("X-Test", "1")], body: Array("{}".utf8))
                XCTAssertEqual(response.status, 201, url)
                XCTAssertEqual(response.text, "POST /a {}", url)
            }
            // The system's store does not hold the local CA; another CA does not sign the certificate.
            let other = try CertificateAuthority(directory: nil, names: ["localhost"])
            for client in [HTTPClient(), try HTTPClient(trust: .certificate(pem: other.caPEM))] {
                XCTAssertThrowsError(try client.send("GET", HTTPClientURL("https://localhost:\(port)/"))) { error in
                    XCTAssertTrue("\(error)".contains("not trusted"), "\(error)")
                }
            }
            // A name the certificate does not cover.
            let otherName = try HTTPClientURL("https://127.0.0.2:\(port)/")
            XCTAssertThrowsError(try trusting.send("GET", otherName))
        }
    }

    func testAServerThatNeverAnswersTimesOut() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: Socket.claimPort(host: "127.0.0.1", port: 0))
        defer { Socket.close(listener) }
        let port = try Socket.localPort(listener)
        let started = milliseconds()
        XCTAssertThrowsError(try HTTPClient().send("GET", HTTPClientURL("http://127.0.0.1:\(port)/"), timeoutSeconds: 1)) { error in
            XCTAssertTrue("\(error)".contains("timed out"), "\(error)")
        }
        XCTAssertGreaterThanOrEqual(milliseconds() - started, 900)
        XCTAssertThrowsError(try HTTPClient().send("GET", HTTPClientURL("http://127.0.0.1:1/"))) { error in
            XCTAssertTrue("\(error)".contains("cannot connect"), "\(error)")
        }
    }

    /// A name may have several addresses (IPv6 and IPv4) and the server listen on one: each is
    /// tried in turn. Only the first was tried before.
    func testAConnectionTriesEachAddressInTurn() throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: Socket.claimPort(host: "127.0.0.1", port: 0))
        defer { Socket.close(listener) }
        let port = try Socket.localPort(listener)
        let refusing = try SocketAddress.resolve(host: "127.0.0.1", port: 1)
        let listening = try SocketAddress.resolve(host: "127.0.0.1", port: port)
        let fd = try Socket.connect(to: [refusing, listening], timeoutSeconds: 5)
        Socket.close(fd)
        XCTAssertThrowsError(try Socket.connect(to: [refusing], timeoutSeconds: 5)) { error in
            XCTAssertTrue("\(error)".contains("127.0.0.1:1"), "\(error)")
        }
    }

    private func milliseconds() -> Int { Int(MonotonicClock.now() / 1_000_000) }
}
