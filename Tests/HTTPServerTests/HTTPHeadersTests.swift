@testable import HTTPServer
import XCTest

final class HTTPHeadersTests: XCTestCase {
    func testFieldsKeepOrderAndLowerCaseNames() {
        let headers = HTTPHeaders([("Accept", "*/*"), ("X-Empty", ""), ("accept", "text/plain")])
        XCTAssertEqual(headers.count, 3)
        XCTAssertEqual(headers.fields.map(\.name), ["accept", "x-empty", "accept"])
        XCTAssertEqual(headers.fields.map(\.value), ["*/*", "", "text/plain"])
        XCTAssertEqual(Array(headers).map(\.value), ["*/*", "", "text/plain"])
    }

    func testLookupIgnoresCaseAndFindsEmptyValues() {
        let headers: HTTPHeaders = ["Authorization": "Bearer x", "x-empty": ""]
        XCTAssertEqual(headers["AUTHORIZATION"], "Bearer x")
        XCTAssertEqual(headers["x-Empty"], "")
        XCTAssertNil(headers["authorizatio"])
        XCTAssertEqual(headers.values("accept"), [])
    }

    func testRemoveAndSet() {
        var headers = HTTPHeaders([("a", "1"), ("b", "2"), ("A", "3")])
        headers.remove("c")
        XCTAssertEqual(headers.count, 3)
        headers.remove("A")
        XCTAssertEqual(headers.fields.map(\.name), ["b"])
        headers.set("b", "4")
        headers.set("c", "5")
        XCTAssertEqual(headers.fields.map(\.value), ["4", "5"])
    }

    func testManyLongFieldsGrowTheStorage() {
        var headers = HTTPHeaders()
        let long = String(repeating: "v", count: 1000)
        for index in 0..<50 { headers.add("x-field-\(index)", long + "\(index)") }
        XCTAssertEqual(headers.count, 50)
        XCTAssertEqual(headers["X-FIELD-49"], long + "49")
        XCTAssertEqual(headers.values("x-field-0"), [long + "0"])
    }

    func testRawFieldsAreTheStoredBytes() {
        var headers = HTTPHeaders()
        Array("content-type".utf8).withUnsafeBufferPointer { name in
            Array("application/json".utf8).withUnsafeBufferPointer { value in headers.addLowercased(name, value) }
        }
        let fields = headers.withFieldBytes { fields in
            fields.map { (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self)) }
        }
        XCTAssertEqual(fields.map(\.0), ["content-type"])
        XCTAssertEqual(fields.map(\.1), ["application/json"])
        XCTAssertEqual(headers["Content-Type"], "application/json")
    }
}
