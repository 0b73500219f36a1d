import PushCore
import XCTest

/// The header and path checks of the provider API, one row per reason, in Apple's order.
final class APNsRequestTests: XCTestCase {
    let token = String(repeating: "ab", count: 32)
    let base: [HeaderField] = [HeaderField("apns-topic", "com.example.app")]

    func check(token: String? = nil, _ extra: [HeaderField], replacing: Bool = false, requiresTopic: Bool = true) -> APNsReason? {
        let headers = replacing ? extra : base + extra
        do {
            _ = try APNsRequest(deviceToken: token ?? self.token, headers: headers, requiresTopic: requiresTopic)
            return nil
        } catch {
            return error
        }
    }

    func testEachHeaderRuleGivesApplesReason() {
        let rows: [(String, [HeaderField], APNsReason?, Int)] = [
            ("plain", [], nil, #line),
            ("uppercase apns-id", [HeaderField("apns-id", "ABCDEF01-2345-6789-ABCD-EF0123456789")], nil, #line),
            ("apns-id without dashes", [HeaderField("apns-id", "abcdef0123456789abcdef0123456789")], .badMessageId, #line),
            ("apns-id with a non-hex digit", [HeaderField("apns-id", "abcdef01-2345-6789-abcd-ef012345678g")], .badMessageId, #line),
            ("collapse id of 64 bytes", [HeaderField("apns-collapse-id", String(repeating: "c", count: 64))], nil, #line),
            ("collapse id of 65 bytes", [HeaderField("apns-collapse-id", String(repeating: "c", count: 65))], .badCollapseId, #line),
            ("priority 10", [HeaderField("apns-priority", "10")], nil, #line),
            ("priority 1", [HeaderField("apns-priority", "1")], nil, #line),
            ("priority 7", [HeaderField("apns-priority", "7")], .badPriority, #line),
            ("background at priority 10", [HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "10")], .badPriority, #line),
            ("background at priority 5", [HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "5")], nil, #line),
            ("expiration 0", [HeaderField("apns-expiration", "0")], nil, #line),
            ("expiration not a number", [HeaderField("apns-expiration", "tomorrow")], .badExpirationDate, #line),
            ("expiration negative", [HeaderField("apns-expiration", "-5")], .badExpirationDate, #line),
            ("unknown push type", [HeaderField("apns-push-type", "banner")], .invalidPushType, #line),
            ("voip without .voip topic", [HeaderField("apns-push-type", "voip")], .invalidPushType, #line),
            ("repeated header", [HeaderField("apns-priority", "10"), HeaderField("apns-priority", "5")], .duplicateHeaders, #line),
            ("repeated authorization", [HeaderField("authorization", "bearer a"), HeaderField("authorization", "bearer b")], .duplicateHeaders, #line),
            ("repeated topic", [HeaderField("apns-topic", "com.example.app")], .duplicateHeaders, #line),
        ]
        for (name, headers, expected, line) in rows {
            XCTAssertEqual(check(headers), expected, name, line: UInt(line))
        }
    }

    func testTopicRules() {
        XCTAssertEqual(check([], replacing: true), .missingTopic)
        XCTAssertEqual(check([HeaderField("apns-topic", "")], replacing: true), .missingTopic)
        XCTAssertNil(check([], replacing: true, requiresTopic: false), "no topic is fine without token authentication")
        XCTAssertEqual(check([HeaderField("apns-topic", "com.example app")], replacing: true), .badTopic)
        XCTAssertEqual(check([HeaderField("apns-topic", ".com.example")], replacing: true), .badTopic)
        let voip = try! APNsRequest(
            deviceToken: token, headers: [HeaderField("apns-topic", "com.example.app.voip"), HeaderField("apns-push-type", "voip")],
            requiresTopic: true)
        XCTAssertEqual(voip.bundleID, "com.example.app")
        XCTAssertEqual(voip.pushType, .voip)
    }

    func testDeviceTokensOfAnyEvenHexLength() {
        for length in [64, 96, 108, 160] {
            XCTAssertNil(check(token: String(repeating: "a1", count: length / 2), []), "\(length) hex digits")
        }
        XCTAssertEqual(check(token: "", []), .missingDeviceToken)
        XCTAssertEqual(check(token: "abc", []), .badDeviceToken)
        XCTAssertEqual(check(token: String(repeating: "zz", count: 32), []), .badDeviceToken)
        let upper = try! APNsRequest(deviceToken: String(repeating: "AB", count: 32), headers: base, requiresTopic: true)
        XCTAssertEqual(upper.deviceToken, token, "stored lowercase")
    }

    func testPayloadRules() throws {
        var request = try APNsRequest(deviceToken: token, headers: base, requiresTopic: true)
        for empty in ["", "   ", "[1]", "\"text\"", "{\"aps\":"] {
            XCTAssertThrowsError(try request.checkPayload(Array(empty.utf8)), empty) { XCTAssertEqual($0 as? APNsReason, .payloadEmpty) }
        }
        let padding = { (count: Int) in Array("{\"p\":\"\(String(repeating: "x", count: count - 8))\"}".utf8) }
        XCTAssertEqual(padding(4096).count, 4096)
        XCTAssertNoThrow(try request.checkPayload(padding(4096)))
        XCTAssertThrowsError(try request.checkPayload(padding(4097))) { XCTAssertEqual($0 as? APNsReason, .payloadTooLarge) }
        var voip = try APNsRequest(
            deviceToken: token, headers: [HeaderField("apns-topic", "com.example.app.voip"), HeaderField("apns-push-type", "voip")],
            requiresTopic: true)
        XCTAssertNoThrow(try voip.checkPayload(padding(5120)))
        XCTAssertThrowsError(try voip.checkPayload(padding(5121))) { XCTAssertEqual($0 as? APNsReason, .payloadTooLarge) }
    }

    func testAMissingPushTypeIsTakenFromThePayload() throws {
        var background = try APNsRequest(deviceToken: token, headers: base, requiresTopic: true)
        try background.checkPayload(Array(#"{"aps":{"content-available":1},"k":"v"}"#.utf8))
        XCTAssertEqual(background.pushType, .background)
        XCTAssertFalse(background.hasPushType)
        var alert = try APNsRequest(deviceToken: token, headers: base, requiresTopic: true)
        try alert.checkPayload(Array(#"{"aps":{"content-available":1,"badge":1}}"#.utf8))
        XCTAssertEqual(alert.pushType, .alert)
    }

    func testEveryReasonHasApplesStatus() {
        XCTAssertEqual(APNsReason.allCases.count, 32, "the 32 reasons of Apple's table")
        XCTAssertEqual(APNsReason.badDeviceToken.status, 400)
        XCTAssertEqual(APNsReason.invalidProviderToken.status, 403)
        XCTAssertEqual(APNsReason.badPath.status, 404)
        XCTAssertEqual(APNsReason.methodNotAllowed.status, 405)
        XCTAssertEqual(APNsReason.unregistered.status, 410)
        XCTAssertEqual(APNsReason.payloadTooLarge.status, 413)
        XCTAssertEqual(APNsReason.tooManyProviderTokenUpdates.status, 429)
        XCTAssertEqual(APNsReason.internalServerError.status, 500)
        XCTAssertEqual(APNsReason.shutdown.status, 503)
        XCTAssertEqual(APNsReason.badEnvironmentKeyIdInToken.rawValue, "BadEnvironmentKeyIdInToken")
    }
}
