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

    func testFirstValueReadsTheFirstFieldOfANameInPlace() {
        let headers = HTTPHeaders([("X-Token", "first"), ("Authorization", "Bearer x"), ("x-token", "second")])
        XCTAssertEqual(headers.firstValue(named: "x-token") { Array($0) == Array("first".utf8) }, true)
        XCTAssertEqual(headers.firstValue(named: "authorization") { $0.count == 8 }, true)
        XCTAssertEqual(headers.firstValue(named: "authorization") { $0.isEmpty }, false)
        XCTAssertNil(headers.firstValue(named: "authorizatio") { _ in true })
        XCTAssertNil(HTTPHeaders().firstValue(named: "authorization") { _ in true })
    }

    func testPickedFieldsHaveTheirValuesMadeByTheCaller() {
        let headers = HTTPHeaders([("apns-topic", "t"), ("Accept", "*/*"), ("authorization", "bearer a"), ("apns-id", "x")])
        let pick: (UnsafeBufferPointer<UInt8>) -> Bool = { $0.startsLonger(than: "apns-") || $0.equals("authorization") }
        var seen = [String]()
        var made = [(name: String, value: String)]()
        headers.forEachField(where: pick) { name, value in
            seen.append(String(decoding: name, as: UTF8.self))
            made.append((name.equals("apns-id") ? "given" : String(decoding: name, as: UTF8.self),
                         name.equals("authorization") ? "kept" : String(decoding: value, as: UTF8.self)))
        }
        XCTAssertEqual(made.map(\.name), ["apns-topic", "authorization", "given"])
        XCTAssertEqual(made.map(\.value), ["t", "kept", "x"])
        XCTAssertEqual(seen, ["apns-topic", "authorization", "apns-id"])
    }

    /// A value written in place reads back like one added as a string, between other fields.
    func testAValueWrittenInPlaceReadsBackAsAdded() {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain")
        headers.add(lowercaseName: "apns-unique-id", valueByteCount: 5) { value in
            for (index, byte) in "a-b-c".utf8.enumerated() { value[index] = byte }
        }
        headers.add(lowercaseName: "x-empty", valueByteCount: 0) { _ in }
        headers.add("apns-id", "given")
        XCTAssertEqual(headers.fields.map(\.name), ["content-type", "apns-unique-id", "x-empty", "apns-id"])
        XCTAssertEqual(headers.fields.map(\.value), ["text/plain", "a-b-c", "", "given"])
        XCTAssertEqual(headers["APNS-UNIQUE-ID"], "a-b-c")
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

    func testHeaderBlockHandsItsFieldsOver() {
        let block = HTTP2HeaderBlock()
        func append(_ name: String, _ value: String) {
            Array(name.utf8).withUnsafeBufferPointer { name in
                Array(value.utf8).withUnsafeBufferPointer { value in block.append(name, value) }
            }
        }
        var headers = HTTPHeaders()
        block.begin(nil)
        append("content-type", "application/json")
        append("x-empty", "")
        block.finish(into: &headers)
        XCTAssertEqual(headers.count, 2)
        XCTAssertEqual(headers["Content-Type"], "application/json")
        XCTAssertEqual(headers["x-empty"], "")

        // A later block (trailers) is appended; one larger than the first buffer makes it grow.
        let long = String(repeating: "t", count: 3000)
        block.begin(nil)
        append("x-trailer", long)
        append("x-other", "1")
        block.finish(into: &headers)
        XCTAssertEqual(headers.fields.map(\.name), ["content-type", "x-empty", "x-trailer", "x-other"])
        XCTAssertEqual(headers["x-trailer"], long)
        let fields = headers.withFieldBytes { fields in fields.map { String(decoding: $0.value, as: UTF8.self) } }
        XCTAssertEqual(fields, ["application/json", "", long, "1"])

        // An unfinished block is dropped by the next one.
        block.begin(nil)
        append("x-dropped", "1")
        block.begin(nil)
        append("x-kept", "2")
        var next = HTTPHeaders()
        block.finish(into: &next)
        XCTAssertEqual(next.fields.map(\.name), ["x-kept"])
    }
}
