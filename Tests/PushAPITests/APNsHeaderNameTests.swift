import PushCore
import XCTest
@testable import PushAPI

/// The provider API's header names told apart by their bytes (`APNsRoutes.knownHeaderName`) and
/// by their strings (`APNsHeaderName(lowercaseName:)`), against the names themselves: each is
/// only ever the header it stands for.
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
            let fromBytes = Array(name.utf8).withUnsafeBufferPointer { APNsRoutes.knownHeaderName($0) }
            let fromString = APNsHeaderName(lowercaseName: name)
            if known.contains(name) {
                XCTAssertEqual(fromBytes?.rawValue, name)
                XCTAssertEqual(fromString?.rawValue, name)
            } else {
                XCTAssertNil(fromBytes, name)
                XCTAssertNil(fromString, name)
            }
        }
    }
}
