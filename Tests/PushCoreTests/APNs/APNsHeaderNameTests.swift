import XCTest

@testable import PushCore

/// The provider API's header names told apart by their bytes, against the names themselves: each
/// is only ever the header it stands for.
final class APNsHeaderNameTests: XCTestCase {
    private let known = [
        "apns-id", "apns-topic", "authorization", "apns-priority", "apns-push-type", "apns-expiration",
        "apns-collapse-id",
    ]

    func testEveryNameReadsAsItsBytes() {
        // The known names, names of their lengths that are none of them, and others.
        let others = [
            "", "apns-", "apns-ix", "apns-topix", "apns-priorit_", "authorizatioN", "aunthorizatio", "apns-push-typ3",
            "apns-expiratio", "apns-collapse-ix", "apns-unknown", "x-apns-topic", "content-length",
        ]
        for name in known + others {
            let bytes = Array(name.utf8)
            let header = APNsHeaderName(lowercaseName: bytes.span)
            if known.contains(name) {
                XCTAssertEqual(header?.rawValue, name)
            } else {
                XCTAssertNil(header, name)
            }
        }
    }
}
