import PushCore
import XCTest

/// The one reading of `Authorization: Bearer <token>`.
final class BearerCredentialTests: XCTestCase {
    func testTheTokenOfABearerHeader() {
        let rows: [(String?, String?, Int)] = [
            ("Bearer abc.def", "abc.def", #line),
            ("bearer abc", "abc", #line),
            ("BEARER abc", "abc", #line),
            ("bEaReR x", "x", #line),
            ("Bearer\tabc", nil, #line),
            ("Bearer \tabc", nil, #line),
            ("Bearer a\tb", nil, #line),
            ("Bearer a b", nil, #line),
            ("Bearer \u{0}x", nil, #line),
            ("Bearer ya29.\u{E9}", nil, #line),
            ("\tBearer abc", nil, #line),
            ("Bearer   abc  ", "abc", #line),
            ("  Bearer abc", "abc", #line),
            (nil, nil, #line),
            ("", nil, #line),
            ("Bearer", nil, #line),
            ("Bearer ", nil, #line),
            ("Bearer \t ", nil, #line),
            ("Bearer    ", nil, #line),
            ("Bear x", nil, #line),
            ("Bearerx y", nil, #line),
            ("Bearerabc", nil, #line),
            ("Basic dXNlcjpwYXNz", nil, #line),
            ("Beare abc", nil, #line),
        ]
        for (header, expected, line) in rows {
            XCTAssertEqual(BearerCredential.token(in: header).map(String.init), expected, "\(header ?? "nil")", line: UInt(line))
        }
    }
}
