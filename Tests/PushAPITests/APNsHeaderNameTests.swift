import XCTest
@testable import PushAPI

/// The provider API's header names given as literals, against the names made from their bytes:
/// a literal is only ever the name it stands for.
final class APNsHeaderNameTests: XCTestCase {
    private let known = [
        "apns-id", "apns-topic", "authorization", "apns-priority", "apns-push-type", "apns-expiration",
        "apns-collapse-id",
    ]

    func testEveryNameReadsAsItsBytes() {
        // The known names, names of their lengths that are none of them, and others.
        let others = [
            "", "apns-", "apns-ix", "apns-topix", "apns-priorit_", "authorizatioN", "apns-push-typ3", "apns-expiratio",
            "apns-collapse-ix", "apns-unknown", "x-apns-topic", "content-length",
        ]
        for name in known + others {
            let literal = Array(name.utf8).withUnsafeBufferPointer { APNsRoutes.knownHeaderName($0) }
            if known.contains(name) {
                XCTAssertEqual(literal, name)
            } else {
                XCTAssertNil(literal, name)
            }
        }
    }
}
