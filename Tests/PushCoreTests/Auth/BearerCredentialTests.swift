import PushCore
import XCTest

/// The one reading of `Authorization: Bearer <token>`.
final class BearerCredentialTests: XCTestCase {
    func testTheTokenOfABearerHeader() {
        let rows: [(String?, String?, Int)] = [
            ("Bearer abc.def", "abc.def", #line),
            ("bearer abc", "abc", #line),
            ("BEARER\tabc", "abc", #line),
            ("Bearer   abc  ", "abc", #line),
            ("  Bearer abc", "abc", #line),
            (nil, nil, #line),
            ("", nil, #line),
            ("Bearer", nil, #line),
            ("Bearer ", nil, #line),
            ("Bearer \t ", nil, #line),
            ("Bearerabc", nil, #line),
            ("Basic dXNlcjpwYXNz", nil, #line),
            ("Beare abc", nil, #line),
        ]
        for (header, expected, line) in rows {
            XCTAssertEqual(BearerCredential.token(in: header).map(String.init), expected, "\(header ?? "nil")", line: UInt(line))
        }
    }
}
