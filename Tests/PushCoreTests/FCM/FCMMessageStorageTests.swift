import PushCore
import XCTest

/// Android and Web Push options are stored boxed: read, written, changed in place and compared,
/// a message behaves as one holding them directly.
final class FCMMessageStorageTests: XCTestCase {
    private let androids: [FCMAndroidConfig?] = [
        nil, FCMAndroidConfig(), FCMAndroidConfig(collapseKey: "k", ttl: GoogleDuration(seconds: 60)),
        FCMAndroidConfig(data: [FCMStringPair("a", "1")], directBootOk: true),
    ]
    private let webpushes: [FCMWebpushConfig?] = [
        nil, FCMWebpushConfig(), FCMWebpushConfig(headers: [FCMStringPair("TTL", "60")]),
        FCMWebpushConfig(fcmOptions: .init(link: "https://example.com")),
    ]

    func testBoxedPartsReadAsGivenAndCompareByValue() {
        for android in androids {
            for webpush in webpushes {
                let message = FCMMessage(target: .token("t"), android: android, webpush: webpush)
                XCTAssertEqual(message.android, android)
                XCTAssertEqual(message.webpush, webpush)
                // Equal when made apart, unequal when either part differs.
                XCTAssertEqual(message, FCMMessage(target: .token("t"), android: android, webpush: webpush))
                for other in androids where other != android {
                    XCTAssertNotEqual(message, FCMMessage(target: .token("t"), android: other, webpush: webpush))
                }
                for other in webpushes where other != webpush {
                    XCTAssertNotEqual(message, FCMMessage(target: .token("t"), android: android, webpush: other))
                }
            }
        }
    }

    func testChangesInPlaceLeaveCopiesAlone() {
        var message = FCMMessage(target: .token("t"), android: FCMAndroidConfig(collapseKey: "a"))
        let copy = message
        message.android?.collapseKey = "b"
        message.webpush = FCMWebpushConfig(data: [FCMStringPair("k", "v")])
        XCTAssertEqual(message.android?.collapseKey, "b")
        XCTAssertEqual(copy.android?.collapseKey, "a")
        XCTAssertNil(copy.webpush)
        message.android = nil
        XCTAssertNil(message.android)
        XCTAssertEqual(copy.android, FCMAndroidConfig(collapseKey: "a"))
    }
}
