import ByteCoding
import XCTest
@testable import PushCore

final class FCMSendRequestTests: XCTestCase {
    private func parse(_ body: String) throws -> FCMSendRequest {
        try FCMSendRequest(body: Array(body.utf8))
    }

    /// No body at all is an empty request, as Google's front end reads it; a body is JSON text,
    /// and whitespace alone holds no value.
    func testEmptyBodyHasNoRecipientAndWhitespaceOnlyIsInvalidJSON() {
        XCTAssertThrowsError(try parse("")) { error in
            XCTAssertEqual((error as? GoogleError)?.message, "Recipient of the message is not set.")
        }
        for body in [" ", "\n", " \r\n\t "] {
            XCTAssertThrowsError(try parse(body)) { error in
                let message = (error as? GoogleError)?.message ?? ""
                XCTAssertTrue(
                    message.hasPrefix("Invalid JSON payload received. Unexpected end of string. Expected a value."),
                    "\(body.debugDescription): \(message)")
            }
        }
    }

    /// Every field of the v1 Message, in snake_case; also in `FCMSendRequestFastDecoderTests`' corpus.
    static let snakeCase = #"""
        {"validate_only": true, "message": {
          "token": "tok",
          "data": {"b": "2", "a": "1"},
          "notification": {"title": "Portugal vs. Denmark", "body": "great match!", "image": "https://x/i.png"},
          "android": {"collapse_key": "score", "priority": "high", "ttl": "3.5s", "restricted_package_name": "com.x",
                      "data": {"k": "v"}, "notification": {"channel_id": "goals", "notification_priority": "priority_high"},
                      "fcm_options": {"analytics_label": "and"}, "direct_boot_ok": true},
          "webpush": {"headers": {"TTL": "60"}, "data": {"w": "1"}, "notification": {"requireInteraction": true},
                      "fcm_options": {"link": "https://x", "analytics_label": "web"}},
          "apns": {"headers": {"apns-priority": "5", "apns-push-type": "background"},
                   "payload": {"aps": {"content-available": 1}, "custom": [1, "two"]},
                   "fcm_options": {"analytics_label": "ios", "image": "https://x/a.png"},
                   "live_activity_token": "lat"},
          "fcm_options": {"analytics_label": "all"}}}
        """#

    /// `snakeCase` in lowerCamelCase, enums and durations written other ways.
    static let camelCase = #"""
        {"validateOnly": true, "message": {
          "token": "tok",
          "data": {"b": "2", "a": "1"},
          "notification": {"title": "Portugal vs. Denmark", "body": "great match!", "image": "https://x/i.png"},
          "android": {"collapseKey": "score", "priority": "HIGH", "ttl": "3.5s", "restrictedPackageName": "com.x",
                      "data": {"k": "v"}, "notification": {"channelId": "goals", "notificationPriority": 4},
                      "fcmOptions": {"analyticsLabel": "and"}, "directBootOk": true},
          "webpush": {"headers": {"TTL": "60"}, "data": {"w": "1"}, "notification": {"requireInteraction": true},
                      "fcmOptions": {"link": "https://x", "analyticsLabel": "web"}},
          "apns": {"headers": {"apns-priority": "5", "apns-push-type": "background"},
                   "payload": {"aps": {"content-available": 1}, "custom": [1, "two"]},
                   "fcmOptions": {"analyticsLabel": "ios", "image": "https://x/a.png"},
                   "liveActivityToken": "lat"},
          "fcmOptions": {"analyticsLabel": "all"}}}
        """#

    func testSnakeAndCamelCaseGiveTheSameModel() throws {
        XCTAssertEqual(try parse(Self.snakeCase), try parse(Self.camelCase))
    }

    func testModelHoldsEveryField() throws {
        let request = try parse(Self.snakeCase)
        XCTAssertTrue(request.validateOnly)
        let message = request.message
        XCTAssertEqual(message.target, .token("tok"))
        XCTAssertEqual(message.data, [FCMStringPair("b", "2"), FCMStringPair("a", "1")])
        XCTAssertEqual(message.data["a"], "1")
        XCTAssertEqual(
            message.notification,
            FCMNotification(title: "Portugal vs. Denmark", body: "great match!", image: "https://x/i.png"))
        XCTAssertEqual(
            message.android,
            FCMAndroidConfig(
                collapseKey: "score", priority: .high, ttl: GoogleDuration(seconds: 3, nanos: 500_000_000),
                restrictedPackageName: "com.x", data: [FCMStringPair("k", "v")],
                notification: ["channel_id": "goals", "notification_priority": "PRIORITY_HIGH"],
                fcmOptions: FCMOptions(analyticsLabel: "and"), directBootOk: true))
        XCTAssertEqual(
            message.webpush,
            FCMWebpushConfig(
                headers: [FCMStringPair("TTL", "60")], data: [FCMStringPair("w", "1")],
                notification: ["requireInteraction": true],
                fcmOptions: .init(link: "https://x", analyticsLabel: "web")))
        XCTAssertEqual(
            message.apns,
            FCMApnsConfig(
                headers: [FCMStringPair("apns-priority", "5"), FCMStringPair("apns-push-type", "background")],
                payload: ["aps": ["content-available": 1], "custom": [1, "two"]],
                fcmOptions: .init(analyticsLabel: "ios", image: "https://x/a.png"), liveActivityToken: "lat"))
        XCTAssertEqual(message.fcmOptions, FCMOptions(analyticsLabel: "all"))
    }

    func testValidateOnlyDefaultsToFalse() throws {
        XCTAssertFalse(try parse(#"{"message":{"token":"t"}}"#).validateOnly)
        XCTAssertFalse(try parse(#"{"message":{"token":"t"},"validateOnly":false}"#).validateOnly)
        XCTAssertTrue(try parse(#"{"message":{"token":"t"},"validateOnly":true}"#).validateOnly)
    }

    func testEachTargetKind() throws {
        XCTAssertEqual(try parse(#"{"message":{"topic":"news-1_a.b~c%20"}}"#).message.target, .topic("news-1_a.b~c%20"))
        XCTAssertEqual(
            try parse(#"{"message":{"condition":"'a' in topics"}}"#).message.target, .condition("'a' in topics"))
        XCTAssertEqual(try parse(#"{"message":{"fid":"f7Wfr_yqG00Gt6B9O7qI13"}}"#).message.target, .fid("f7Wfr_yqG00Gt6B9O7qI13"))
        // A null second target is no target at all (proto3 JSON).
        XCTAssertEqual(try parse(#"{"message":{"token":"t","topic":null}}"#).message.target, .token("t"))
    }

    func testCanonicalFormKeepsOrderWhenTheFirstChangeComesMidway() throws {
        let body = #"{"token":"t","fcmOptions":{"analyticsLabel":"x"},"name":"","data":{"k":"v"},"topic":null}"#
        var mapper = FCMProtoJSONMapper()
        let canonical = mapper.mapRoot(try JSONParser.parse(body), as: FCMSchema.message)
        XCTAssertEqual(mapper.violations, [])
        XCTAssertEqual(
            JSONSerializer.serializeToString(.object(canonical)),
            #"{"token":"t","fcm_options":{"analytics_label":"x"},"data":{"k":"v"}}"#)
        let already = try JSONParser.parse(#"{"token":"t","data":{"k":"v"}}"#)
        XCTAssertEqual(.object(mapper.mapRoot(already, as: FCMSchema.message)), already)
    }

    func testProto3DefaultsReadAsUnset() throws {
        let message = try parse(#"{"message":{"token":"t","notification":{"title":"","body":null},"android":{"direct_boot_ok":false}}}"#)
            .message
        XCTAssertEqual(message.notification, FCMNotification())
        XCTAssertEqual(message.android, FCMAndroidConfig())
    }

    func testAndroidPriorityAcceptsAnyCaseAndNumbers() throws {
        for (text, expected) in [(#""normal""#, FCMAndroidConfig.Priority.normal), (#""High""#, .high), ("0", .normal), ("1", .high)] {
            let message = try parse(#"{"message":{"token":"t","android":{"priority":"# + text + "}}}").message
            XCTAssertEqual(message.android?.priority, expected, text)
        }
    }

    func testTTLLimitsAreInclusive() throws {
        XCTAssertEqual(try parse(#"{"message":{"token":"t","android":{"ttl":"0s"}}}"#).message.android?.ttl, GoogleDuration(seconds: 0))
        XCTAssertEqual(
            try parse(#"{"message":{"token":"t","android":{"ttl":"2419200s"}}}"#).message.android?.ttl,
            GoogleDuration(seconds: 2_419_200))
    }

    func testAnalyticsLabelOfFiftyCharactersIsAccepted() throws {
        let label = String(repeating: "a", count: 49) + "%"
        let body = #"{"message":{"token":"t","fcm_options":{"analytics_label":""# + label + #""}}}"#
        XCTAssertEqual(try parse(body).message.fcmOptions?.analyticsLabel, label)
    }

    func testUnreservedLookalikeKeysAreAccepted() throws {
        let body = #"{"message":{"token":"t","data":{"From":"x","fromage":"y","Google":"z","message_types":"w"}}}"#
        XCTAssertEqual(try parse(body).message.data.count, 4)
    }

    /// The byte-wise test answers as the character-wise rule, combining marks included.
    func testReservedDataKeysMatchTheCharacterRule() {
        let keys = [
            "", "f", "from", "fromage", "From", "from\u{301}", "message_type", "message_types", "message_typ",
            "g", "gc", "gcm", "gcmx", "gcm\u{301}", "gcm\u{301}x", "gcmé", "googl", "google", "googlex", "google\u{301}",
            "googleé", "Google", "GCM", "é", "\u{301}google", "\u{301}", "score", "customKey",
        ]
        for key in keys {
            let characterRule = key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
            XCTAssertEqual(FCMMessage.isReservedDataKey(key), characterRule, key.unicodeScalars.debugDescription)
        }
    }

    func testTopicPayloadByteCount() throws {
        let message = try parse(#"{"message":{"topic":"n","data":{"ab":"cde"},"notification":{"title":"é"}}}"#).message
        XCTAssertEqual(message.topicPayloadByteCount, 2 + 3 + 2)
        XCTAssertEqual(FCMMessage.topicPayloadSizeLimit, 2048)
    }

    func testDurationTextAndRounding() throws {
        XCTAssertEqual(try GoogleDuration(parsing: "3.5s").description, "3.500s")
        XCTAssertEqual(try GoogleDuration(parsing: "-0.000000001s").description, "-0.000000001s")
        XCTAssertEqual(try GoogleDuration(parsing: "2.999s").wholeSecondsRoundedDown, 2)
        XCTAssertEqual(try GoogleDuration(parsing: "-1.5s").wholeSecondsRoundedDown, -2)
        XCTAssertThrowsError(try GoogleDuration(parsing: "315576000001s"))
        XCTAssertThrowsError(try GoogleDuration(parsing: "1.s"))
        XCTAssertThrowsError(try GoogleDuration(parsing: "+1s"))
    }
}
