import XCTest
@testable import HTTPServer

final class VersionTests: XCTestCase {
    func testLinksNGHTTP2() {
        XCTAssertFalse(nghttp2Version().isEmpty)
    }
}
