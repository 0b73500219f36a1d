import ByteCoding
import PushCore
import XCTest

/// Golden shapes: whole header lists and payloads, key order included.
final class AppleConversionTests: XCTestCase {
    let messageID = "6810356097230477954"
    let senderID = "123456789012"
    let apnsID = "6f1c2a4e-9b3d-4c1e-8f00-1a2b3c4d5e6f"
    let defaultExpiration = "1797933600"  // 2026-11-22T10:00:00Z + 30 days

    func convert(
        notification: FCMNotification? = nil, data: [(key: String, value: String)] = [],
        headers: [FCMStringPair] = [], payload: JSONObject? = nil, apnsImage: String? = nil, fid: String? = nil
    ) -> APNsNotification {
        AppleConversion.convert(
            AppleConversionInput(
                notification: notification, data: data, apnsHeaders: headers, apnsPayload: payload,
                apnsImage: apnsImage, fid: fid, messageID: messageID, senderID: senderID, bundleID: "com.example.app",
                apnsID: apnsID, now: Timestamp(secondsSinceEpoch: fixedNowSeconds)))
    }

    func headers(_ pushType: String, _ priority: String, topic: String = "com.example.app") -> [HeaderField] {
        [
            HeaderField("apns-push-type", pushType), HeaderField("apns-priority", priority),
            HeaderField("apns-topic", topic), HeaderField("apns-expiration", defaultExpiration),
            HeaderField("apns-id", apnsID),
        ]
    }

    var fcmKeys: [(String, JSONValue)] {
        [("gcm.message_id", str(messageID)), ("google.c.a.e", str("1")), ("google.c.sender.id", str(senderID))]
    }

    func testNotificationOnly() {
        let result = convert(notification: .init(title: "Portugal vs. Denmark", body: "great match!"))
        XCTAssertEqual(result.headers, headers("alert", "10"))
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj(("alert", obj(("title", str("Portugal vs. Denmark")), ("body", str("great match!")))))),
                ("gcm.message_id", str(messageID)), ("google.c.a.e", str("1")),
                ("google.c.sender.id", str(senderID))))
    }

    func testDataOnlyIsBackgroundPriorityFiveWithoutAnalyticsFlag() {
        let result = convert(data: [("score", "3x1"), ("time", "15:10")])
        XCTAssertEqual(result.headers, headers("background", "5"))
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj()), ("score", str("3x1")), ("time", str("15:10")), ("gcm.message_id", str(messageID)),
                ("google.c.sender.id", str(senderID))))
    }

    func testNotificationAndData() {
        let result = convert(notification: .init(title: "Goal"), data: [("matchId", "42")])
        XCTAssertEqual(result.headers, headers("alert", "10"))
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj(("alert", obj(("title", str("Goal")))))), ("matchId", str("42")),
                ("gcm.message_id", str(messageID)), ("google.c.a.e", str("1")),
                ("google.c.sender.id", str(senderID))))
    }

    func testAPNsPayloadWinsOverNotificationTitleButBodyIsFilledIn() {
        let payload = object(("aps", obj(("alert", obj(("title", str("From APNs")))), ("badge", num(1)))))
        let result = convert(notification: .init(title: "From FCM", body: "Body"), payload: payload)
        XCTAssertEqual(
            result.payload["aps"],
            obj(("alert", obj(("title", str("From APNs")), ("body", str("Body")))), ("badge", num(1))))
    }

    func testStringAlertIsKept() {
        let payload = object(("aps", obj(("alert", str("Plain text alert")))))
        let result = convert(notification: .init(title: "Ignored", body: "Ignored"), payload: payload)
        XCTAssertEqual(result.payload["aps"], obj(("alert", str("Plain text alert"))))
        XCTAssertEqual(result.headers, headers("alert", "10"))
    }

    func testNotificationImageBecomesTopLevelFCMOptions() {
        let result = convert(notification: .init(title: "Look", image: "https://example.com/a.png"))
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj(("alert", obj(("title", str("Look")))))), ("gcm.message_id", str(messageID)),
                ("google.c.a.e", str("1")), ("google.c.sender.id", str(senderID)),
                ("fcm_options", obj(("image", str("https://example.com/a.png"))))))
    }

    func testAPNsFCMOptionsImageWinsOverNotificationImage() {
        let result = convert(
            notification: .init(title: "Look", image: "https://example.com/generic.png"),
            apnsImage: "https://example.com/apple.png")
        XCTAssertEqual(result.payload["fcm_options"], obj(("image", str("https://example.com/apple.png"))))
    }

    func testContentAvailableMakesABackgroundPush() {
        let payload = object(("aps", obj(("content-available", num(1)))))
        let result = convert(data: [("sync", "inbox")], payload: payload)
        XCTAssertEqual(result.headers, headers("background", "5"))
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj(("content-available", num(1)))), ("sync", str("inbox")),
                ("gcm.message_id", str(messageID)), ("google.c.sender.id", str(senderID))))
    }

    func testCategoryStaysAndTheNewAlertGoesFirst() {
        let payload = object(("aps", obj(("category", str("INVITE")), ("mutable-content", num(1)))))
        let result = convert(notification: .init(title: "Party", body: "Come?"), payload: payload)
        XCTAssertEqual(
            result.payload["aps"],
            obj(
                ("alert", obj(("title", str("Party")), ("body", str("Come?")))), ("category", str("INVITE")),
                ("mutable-content", num(1))))
    }

    func testBadgeAndSoundOnlyIsAnAlertPushWithHighPriority() {
        let payload = object(("aps", obj(("badge", num(7)), ("sound", str("default")))))
        let result = convert(payload: payload)
        XCTAssertEqual(result.headers, headers("alert", "10"))
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj(("badge", num(7)), ("sound", str("default")))), ("gcm.message_id", str(messageID)),
                ("google.c.sender.id", str(senderID))))
    }

    func testCustomKeysFromAPNsPayloadComeFirstAndWinOverData() {
        let payload = object(("aps", obj()), ("reason", str("IncomingPayment")), ("shared", str("from-apns")))
        let result = convert(data: [("shared", "from-data"), ("extra", "1")], payload: payload)
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj()), ("reason", str("IncomingPayment")), ("shared", str("from-apns")), ("extra", str("1")),
                ("gcm.message_id", str(messageID)), ("google.c.sender.id", str(senderID))))
    }

    func testHeaderNamesWithCapitalsCountAsTheirLowercaseNames() {
        let given = [
            FCMStringPair("X-Custom", "yes"), FCMStringPair("APNS-PRIORITY", "5"), FCMStringPair("apns-priority", "10"),
            FCMStringPair("Apns-Collapse-Id", "c"),
        ]
        let result = convert(data: [("k", "v")], headers: given)
        XCTAssertEqual(
            result.headers,
            [
                HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "5"),
                HeaderField("apns-topic", "com.example.app"), HeaderField("apns-expiration", defaultExpiration),
                HeaderField("apns-collapse-id", "c"), HeaderField("apns-id", apnsID), HeaderField("x-custom", "yes"),
            ])
        XCTAssertEqual(result.collapseID, "c")
        XCTAssertEqual(result.pushType, "background")
    }

    func testExplicitHeadersAreKeptInCanonicalOrderAndExtrasFollow() {
        let given = [
            FCMStringPair("APNs-Expiration", "1800000000"), FCMStringPair("apns-priority", "5"),
            FCMStringPair("x-custom", "yes"), FCMStringPair("apns-push-type", "alert"),
        ]
        let result = convert(notification: .init(title: "Hi"), headers: given)
        XCTAssertEqual(
            result.headers,
            [
                HeaderField("apns-push-type", "alert"), HeaderField("apns-priority", "5"),
                HeaderField("apns-topic", "com.example.app"), HeaderField("apns-expiration", "1800000000"),
                HeaderField("apns-id", apnsID), HeaderField("x-custom", "yes"),
            ])
    }

    func testDefaultExpirationIsThirtyDaysAfterTheEmulatorsNow() {
        let later = AppleConversion.convert(
            AppleConversionInput(
                messageID: messageID, senderID: senderID, bundleID: "com.example.app", apnsID: apnsID,
                now: Timestamp(secondsSinceEpoch: fixedNowSeconds).adding(seconds: 86_400)))
        XCTAssertEqual(later.headers.value(named: "apns-expiration"), String(fixedNowSeconds + 86_400 + thirtyDays))
    }

    func testFIDTargetAddsGoogleFID() {
        let result = convert(notification: .init(title: "Hi"), fid: "f7Wfr_yqG00Gt6B9O7qI13")
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj(("alert", obj(("title", str("Hi")))))), ("gcm.message_id", str(messageID)),
                ("google.c.a.e", str("1")), ("google.c.sender.id", str(senderID)),
                ("google.c.fid", str("f7Wfr_yqG00Gt6B9O7qI13"))))
    }

    func testCollapseIDHeaderSitsBeforeAPNsID() {
        let result = convert(data: [("k", "v")], headers: [FCMStringPair("apns-collapse-id", "score")])
        XCTAssertEqual(
            result.headers,
            [
                HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "5"),
                HeaderField("apns-topic", "com.example.app"), HeaderField("apns-expiration", defaultExpiration),
                HeaderField("apns-collapse-id", "score"), HeaderField("apns-id", apnsID),
            ])
        XCTAssertEqual(result.collapseID, "score")
    }

    func testVoIPGetsItsTopicSuffixAndTheLargerSizeLimit() {
        let result = convert(data: [("caller", "Ann")], headers: [FCMStringPair("apns-push-type", "voip")])
        XCTAssertEqual(result.headers, headers("voip", "5", topic: "com.example.app.voip"))
        XCTAssertEqual(ApplePayloadLimit.bytes(forPushType: "voip"), 5120)
        XCTAssertTrue(ApplePayloadLimit.fits(byteCount: 5000, pushType: "voip"))
        XCTAssertFalse(ApplePayloadLimit.fits(byteCount: 5000, pushType: "alert"))
        XCTAssertTrue(ApplePayloadLimit.fits(byteCount: 4096, pushType: nil))
        XCTAssertFalse(ApplePayloadLimit.fits(byteCount: 4097, pushType: nil))
    }

    func testReservedKeysFromAPNsPayloadAreReplacedByFCMsOwn() {
        let payload = object(("aps", obj()), ("gcm.message_id", str("spoofed")), ("keep", str("me")))
        let result = convert(payload: payload)
        XCTAssertEqual(
            result.payload,
            object(
                ("aps", obj()), ("keep", str("me")), ("gcm.message_id", str(messageID)),
                ("google.c.sender.id", str(senderID))))
    }
}
