@testable import PushCore
import XCTest

/// Looking a header up by name in a notification's fields: the first of that name, in any case
/// given, found among names of the same length and of other lengths.
final class HeaderFieldLookupTests: XCTestCase {
    let fields = [
        HeaderField("apns-topic", "com.example.app"),
        HeaderField("apns-tipic", "same length"),
        HeaderField("apns-collapse-id", "score"),
        HeaderField("apns-collapse-id", "second"),
        HeaderField("apns-priority", "10"),
        HeaderField("x-long-header-name-beyond-fifteen-bytes", "long"),
    ]

    func testFindsTheFirstFieldOfTheName() {
        XCTAssertEqual(fields.value(lowercaseName: "apns-topic"), "com.example.app")
        XCTAssertEqual(fields.value(lowercaseName: "apns-tipic"), "same length")
        XCTAssertEqual(fields.value(lowercaseName: "apns-collapse-id"), "score")
        XCTAssertEqual(fields.value(lowercaseName: "apns-priority"), "10")
        XCTAssertEqual(fields.value(lowercaseName: "x-long-header-name-beyond-fifteen-bytes"), "long")
        XCTAssertEqual(fields.value(named: "APNS-Collapse-ID"), "score")
    }

    func testNamesThatDifferOnlyInLengthOrOneByteAreOthers() {
        for name in ["apns-topi", "apns-topicx", "apns-topix", "apns-collapse-i", "apns-collapse-ids", "x-long-header-name-beyond-fifteen-byte", ""] {
            XCTAssertNil(fields.value(lowercaseName: name), name)
        }
    }
}
