import XCTest
@testable import ByteCoding

final class JSONValueTests: XCTestCase {
    func testSubscriptKeepsOrder() {
        var object = JSONObject()
        object["b"] = .string("1")
        object["a"] = .number("2")
        object["b"] = .bool(true)
        XCTAssertEqual(object.keys, ["b", "a"])
        XCTAssertEqual(object["b"], .bool(true))
    }
}
