import XCTest
@testable import HTTPServer
import Synchronization

final class RouterTests: XCTestCase {
    private func router() -> Router {
        var router = Router()
        router.add("POST", "/v1/projects/{project}/messages:send") { request in
            .text(200, "send \(request.pathParameters["project"]!)")
        }
        router.add("GET", "/emulator/v1/projects/{project}/devices/{token}") { request in
            .text(200, "get \(request.pathParameters["token"]!)")
        }
        router.add("GET", "/emulator/v1/projects/{project}/devices/{token}:stream") { request in
            .text(200, "stream \(request.pathParameters["token"]!)")
        }
        router.add("POST", "/iid/v1:batchAdd") { _ in .text(200, "batchAdd") }
        return router
    }

    private func body(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "<stream>" }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testTheGuardSeesOnlyTheRoutesUnderItsPrefix() {
        let seen = Mutex<[String]>([])
        var router = Router()
        router.guardedPrefix = "/emulator/"
        router.routeGuard = { request in
            seen.withLock { $0.append(request.path) }
            return request.headers["x-refuse"] != nil ? .text(403, "refused") : nil
        }
        router.add("GET", "/emulator/v1/clock") { _ in .text(200, "clock") }
        router.add("GET", "/healthz") { _ in .text(200, "ok") }
        router.guardedPrefix = nil
        router.add("GET", "/emulator/v1/added-after") { _ in .text(200, "after") }
        var refusing = HTTPHeaders()
        refusing.add("x-refuse", "1")
        XCTAssertEqual(router.handle(HTTPRequest(method: "GET", target: "/emulator/v1/clock", headers: refusing)).status, 403)
        XCTAssertEqual(body(router.handle(HTTPRequest(method: "GET", target: "/emulator/v1/clock"))), "clock")
        XCTAssertEqual(body(router.handle(HTTPRequest(method: "GET", target: "/healthz", headers: refusing))), "ok")
        XCTAssertEqual(body(router.handle(HTTPRequest(method: "GET", target: "/emulator/v1/added-after", headers: refusing))), "after")
        XCTAssertEqual(seen.withLock { $0 }, ["/emulator/v1/clock", "/emulator/v1/clock"])
    }

    func testParameterCheckRefusesBeforeTheHandler() {
        var router = router()
        router.checkParameters = { parameters in
            parameters["project"] == "bad\u{0}id" ? .text(400, "bad project") : nil
        }
        let refused = router.handle(HTTPRequest(method: "POST", target: "/v1/projects/bad%00id/messages:send"))
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(body(refused), "bad project")
        XCTAssertEqual(body(router.handle(HTTPRequest(method: "POST", target: "/v1/projects/good/messages:send"))), "send good")
        XCTAssertEqual(router.handle(HTTPRequest(method: "GET", target: "/nowhere")).status, 404)
    }

    func testObserverGetsTheTemplateNotThePath() {
        let seen = Mutex<[String]>([])
        var router = router()
        router.checkParameters = { parameters in parameters["project"] == "bad" ? .text(400, "bad project") : nil }
        router.observer = { route, method, status, loop in
            seen.withLock { $0.append("\(method) \(route.template) \(route.number) \(status) \(loop)") }
        }
        _ = router.handle(HTTPRequest(method: "POST", target: "/v1/projects/demo/messages:send"))
        _ = router.handle(HTTPRequest(method: "POST", target: "/v1/projects/bad/messages:send"))
        _ = router.handle(HTTPRequest(method: "GET", target: "/v1/projects/demo/messages:send"))
        _ = router.handle(HTTPRequest(method: "GET", target: "/nowhere/\(UInt64.random(in: 0...UInt64.max))"))
        XCTAssertEqual(seen.withLock { $0 }, [
            "POST /v1/projects/{project}/messages:send 0 200 0",
            "POST /v1/projects/{project}/messages:send 0 400 0",
            "GET /v1/projects/{project}/messages:send 0 405 0",
            "GET \(Router.unmatchedRoute) -1 404 0",
        ])
    }

    func testVerbSuffixAndParameters() {
        let response = router().handle(HTTPRequest(method: "POST", target: "/v1/projects/demo-1/messages:send"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(body(response), "send demo-1")
    }

    func testTokensWithColonsMatchPlainParameter() {
        let token = "cFmR2nOQ0kM1pZx9Yq7Abc:APA91bHun4MxP5egoKMwt2KZFBaFUH"
        let plain = router().handle(HTTPRequest(method: "GET", target: "/emulator/v1/projects/p/devices/\(token)"))
        XCTAssertEqual(body(plain), "get \(token)")
        let stream = router().handle(HTTPRequest(method: "GET", target: "/emulator/v1/projects/p/devices/\(token):stream"))
        XCTAssertEqual(body(stream), "stream \(token)")
    }

    func testPercentDecodedParameters() {
        let response = router().handle(HTTPRequest(method: "GET", target: "/emulator/v1/projects/p/devices/a%2Fb?x=1"))
        XCTAssertEqual(body(response), "get a/b")
    }

    /// A path parameter's escapes decoded, malformed escapes refused, bytes that are not UTF-8 repaired.
    func testParameterDecoding() {
        let cases: [([UInt8], String?)] = [
            ([], ""), (Array("abc".utf8), "abc"), (Array(String(repeating: "be", count: 32).utf8), String(repeating: "be", count: 32)),
            (Array("a%20b".utf8), "a b"), (Array("%".utf8), nil), (Array("a%2".utf8), nil), (Array("a%zz".utf8), nil),
            (Array("%C3%A9".utf8), "é"), (Array("a+b".utf8), "a+b"), ([0x61, 0xFF, 0x62], "a\u{FFFD}b"), ([0xC3], "\u{FFFD}"),
            (Array("é".utf8), "é"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(input.withUnsafeBufferPointer { PercentDecoding.decode($0) }, expected, "\(input)")
        }
    }

    func testLiteralVerbSegment() {
        XCTAssertEqual(body(router().handle(HTTPRequest(method: "POST", target: "/iid/v1:batchAdd"))), "batchAdd")
        XCTAssertEqual(router().handle(HTTPRequest(method: "POST", target: "/iid/v1:batchRemove")).status, 404)
    }

    func testNotFoundAndMethodNotAllowed() {
        XCTAssertEqual(router().handle(HTTPRequest(method: "GET", target: "/nope")).status, 404)
        let wrongMethod = router().handle(HTTPRequest(method: "GET", target: "/v1/projects/p/messages:send"))
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.headers["Allow"], "POST")
    }

    func testEmptyParameterDoesNotMatch() {
        XCTAssertEqual(router().handle(HTTPRequest(method: "POST", target: "/v1/projects//messages:send")).status, 404)
    }

    func testHeadIsServedByGetRoutes() {
        XCTAssertEqual(router().handle(HTTPRequest(method: "HEAD", target: "/emulator/v1/projects/p/devices/t")).status, 200)
    }
}

final class HTTPBasicsTests: XCTestCase {
    func testHeadersAreCaseInsensitiveAndOrdered() {
        var headers = HTTPHeaders([("Content-Type", "a"), ("X-One", "1"), ("x-one", "2")])
        XCTAssertEqual(headers["content-type"], "a")
        XCTAssertEqual(headers.values("X-ONE"), ["1", "2"])
        headers.set("X-One", "3")
        XCTAssertEqual(headers.fields.map(\.name), ["content-type", "x-one"])
    }

    func testQueryItems() {
        let request = HTTPRequest(method: "GET", target: "/x?topicName=a%20b&allow_missing=true&plus=a+b&flag")
        XCTAssertEqual(request.path, "/x")
        XCTAssertEqual(request.queryItem("topicName"), "a b")
        XCTAssertEqual(request.queryItem("allow_missing"), "true")
        XCTAssertEqual(request.queryItem("plus"), "a b")
        XCTAssertEqual(request.queryItem("flag"), "")
    }
}
