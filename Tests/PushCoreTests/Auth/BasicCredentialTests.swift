import PushCore
import XCTest

/// The `Authorization: Basic` reader (RFC 7617) of `--ui-auth-file`.
final class BasicCredentialTests: XCTestCase {
    private func read(_ header: String?) -> [String]? {
        BasicCredential.userAndPassword(in: header).map { [$0.user, String(decoding: $0.password, as: UTF8.self)] }
    }

    func testUserAndPasswordAreSplitAtTheFirstColon() {
        XCTAssertEqual(read("Basic YWxpY2U6c2VjcmV0IHBhc3M="), ["alice", "secret pass"])
        XCTAssertEqual(read("Basic YTpiOmM="), ["a", "b:c"])
        XCTAssertEqual(read("basic  YTpiOmM  "), ["a", "b:c"], "any case, spaces around the credential")
        XCTAssertEqual(read("BASIC YTpiOmM"), ["a", "b:c"], "padding may be left out")
        XCTAssertEqual(read("Basic Og=="), ["", ""])
    }

    func testOtherSchemesAndShapesAreNotRead() {
        for header in [nil, "", "Basic", "Basic ", "Basic bm9jb2xvbg==", "Basic !!!", "Digest abc", "Bearer YTpi",
                       "Basicc YTpi", "Basic\tYTpi", "Basic\u{00A0}YTpi"] {
            XCTAssertNil(read(header), header ?? "nil")
        }
    }
}
