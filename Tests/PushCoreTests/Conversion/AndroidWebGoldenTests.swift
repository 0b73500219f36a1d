import ByteCoding
import PushCore
import XCTest

/// The golden examples of docs/android.md and docs/web.md (G1–G8): a v1 message in; the Android
/// extras, the `RemoteMessage` getters and the web push message and `MessagePayload` out, compared
/// as parsed JSON objects (member order aside).
final class AndroidWebGoldenTests: XCTestCase {
    private let facts = AndroidDeliveryFacts(
        from: "123456789012", senderID: "123456789012", messageID: "6810356097230477954",
        sentAtMilliseconds: 1_795_341_600_000, appID: "com.example.app")
    private let base = #""from":"123456789012","messageId":"6810356097230477954","sentTime":1795341600000"#

    private func message(_ json: String) throws -> FCMMessage {
        try FCMSendRequest(body: Array(json.utf8)).message
    }

    private func parsed(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    /// Equal as JSON objects whatever the order of their members, at every depth.
    private func assertSameJSON(_ actual: JSONValue, _ expected: String, _ what: String, line: UInt = #line) {
        func normalized(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object):
                return .object(JSONObject(object.members.sorted { $0.key < $1.key }.map {
                    JSONObject.Member(key: $0.key, value: normalized($0.value))
                }))
            case .array(let elements): return .array(elements.map(normalized))
            default: return value
            }
        }
        let want = normalized(parsed(expected)), got = normalized(actual)
        XCTAssertEqual(
            got, want, "\(what):\n got \(JSONSerializer.serializeToString(got))\nwant \(JSONSerializer.serializeToString(want))",
            line: line)
    }

    private func android(_ json: String, facts: AndroidDeliveryFacts? = nil) throws -> AndroidMessage {
        AndroidConversion.convert(try message(json), facts: facts ?? self.facts)
    }

    private func web(_ json: String, facts: AndroidDeliveryFacts? = nil) throws -> WebPushMessage {
        WebConversion.convert(try message(json), facts: facts ?? self.facts)
    }

    func testG1NotificationOnly() throws {
        let json = #"{"message":{"token":"T","notification":{"title":"Hi","body":"There"}}}"#
        let converted = try android(json)
        assertSameJSON(converted.extrasJSON, #"""
            {"from":"123456789012","google.message_id":"6810356097230477954","google.sent_time":"1795341600000",
             "google.ttl":"2419200","google.original_priority":"high","google.delivered_priority":"high",
             "google.c.sender.id":"123456789012","google.c.a.e":"1","collapse_key":"com.example.app",
             "gcm.notification.e":"1","gcm.n.dnp":"1","gcm.notification.title":"Hi","gcm.notification.body":"There"}
            """#, "extras")
        assertSameJSON(converted.remoteMessage, #"""
            {\#(base),"ttl":2419200,"collapseKey":"com.example.app","priority":1,"originalPriority":1,"data":{},
             "notification":{"title":"Hi","body":"There"}}
            """#, "RemoteMessage")
        let pushed = try web(json)
        assertSameJSON(.object(pushed.wire), #"""
            {"from":"123456789012","priority":"high","notification":{"title":"Hi","body":"There"},"fcmMessageId":"6810356097230477954"}
            """#, "web wire")
        assertSameJSON(pushed.messagePayload, #"""
            {"from":"123456789012","messageId":"6810356097230477954","notification":{"title":"Hi","body":"There"}}
            """#, "MessagePayload")
    }

    func testG2DataOnly() throws {
        let json = #"{"message":{"token":"T","data":{"score":"3-1","room":"PT-DK"}}}"#
        let converted = try android(json)
        assertSameJSON(converted.extrasJSON, #"""
            {"from":"123456789012","google.message_id":"6810356097230477954","google.sent_time":"1795341600000",
             "google.ttl":"2419200","google.original_priority":"normal","google.delivered_priority":"normal",
             "google.c.sender.id":"123456789012","score":"3-1","room":"PT-DK"}
            """#, "extras")
        assertSameJSON(converted.remoteMessage, #"""
            {\#(base),"ttl":2419200,"priority":2,"originalPriority":2,"data":{"score":"3-1","room":"PT-DK"}}
            """#, "RemoteMessage")
        XCTAssertFalse(converted.isNotification)
        XCTAssertNil(converted.collapseKey)
        let pushed = try web(json)
        assertSameJSON(.object(pushed.wire), #"""
            {"from":"123456789012","priority":"normal","data":{"score":"3-1","room":"PT-DK"},"fcmMessageId":"6810356097230477954"}
            """#, "web wire")
        assertSameJSON(pushed.messagePayload, #"""
            {"from":"123456789012","messageId":"6810356097230477954","data":{"score":"3-1","room":"PT-DK"}}
            """#, "MessagePayload")
    }

    func testG3BothWithAndroidOverrides() throws {
        let json = #"""
            {"message":{"token":"T","notification":{"title":"Goal!","body":"PT 1-0","image":"https://img.example/g.png"},
             "data":{"match":"42"},"android":{"collapse_key":"scores","priority":"NORMAL","ttl":"3600.5s",
             "notification":{"title":"GOAL","icon":"ic_goal","color":"#ff0000","tag":"match-42","sound":"whistle",
             "click_action":"OPEN_MATCH","channel_id":"scores","notification_count":3}}}}
            """#
        let converted = try android(json)
        assertSameJSON(converted.remoteMessage, #"""
            {\#(base),"ttl":3600,"collapseKey":"com.example.app","priority":2,"originalPriority":2,"data":{"match":"42"},
             "notification":{"title":"GOAL","body":"PT 1-0","imageUrl":"https://img.example/g.png","icon":"ic_goal",
             "sound":"whistle","tag":"match-42","color":"#ff0000","clickAction":"OPEN_MATCH","channelId":"scores","notificationCount":3}}
            """#, "RemoteMessage")
        let extras = Dictionary(uniqueKeysWithValues: converted.extras.map { ($0.key, $0.value) })
        XCTAssertEqual(extras["gcm.notification.sound2"], "whistle")
        XCTAssertEqual(extras["gcm.notification.sound"], "default")
        XCTAssertEqual(extras["gcm.notification.android_channel_id"], "scores")
        assertSameJSON(try web(json).messagePayload, #"""
            {"from":"123456789012","messageId":"6810356097230477954",
             "notification":{"title":"Goal!","body":"PT 1-0","image":"https://img.example/g.png"},"data":{"match":"42"}}
            """#, "MessagePayload")
    }

    func testG4CollapsibleDataTTLZeroHighAndroidData() throws {
        let json = #"""
            {"message":{"token":"T","data":{"a":"1","b":"2"},
             "android":{"collapse_key":"sync","priority":"HIGH","ttl":"0s","data":{"a":"9"}}}}
            """#
        let converted = try android(json)
        assertSameJSON(converted.remoteMessage, #"""
            {\#(base),"collapseKey":"sync","priority":1,"originalPriority":1,"data":{"a":"9"}}
            """#, "RemoteMessage")
        XCTAssertEqual(converted.ttlSeconds, 0)
        XCTAssertEqual(converted.collapseKey, "sync")
        assertSameJSON(try web(json).messagePayload, #"""
            {"from":"123456789012","messageId":"6810356097230477954","data":{"a":"1","b":"2"}}
            """#, "MessagePayload")
    }

    func testG5TopicAndAnalyticsLabel() throws {
        let json = #"{"message":{"topic":"news","notification":{"title":"Extra"},"fcm_options":{"analytics_label":"n1"}}}"#
        var topicFacts = facts
        topicFacts.from = "/topics/news"
        let converted = try android(json, facts: topicFacts)
        assertSameJSON(converted.remoteMessage, #"""
            {"from":"/topics/news","messageId":"6810356097230477954","sentTime":1795341600000,"ttl":2419200,
             "collapseKey":"com.example.app","priority":1,"originalPriority":1,"data":{},"notification":{"title":"Extra"}}
            """#, "RemoteMessage")
        XCTAssertTrue(converted.extras.contains(FCMStringPair("google.c.a.m_l", "n1")))
        assertSameJSON(try web(json, facts: topicFacts).messagePayload, #"""
            {"from":"/topics/news","messageId":"6810356097230477954","notification":{"title":"Extra"}}
            """#, "MessagePayload")
    }

    func testG6WebOptions() throws {
        let json = #"""
            {"message":{"token":"T","notification":{"title":"Sale","body":"50% off"},"data":{"sku":"1","src":"x"},
             "webpush":{"headers":{"TTL":"600","Urgency":"high"},"data":{"sku":"9"},
              "notification":{"icon":"https://shop.example/i.png","badge":"https://shop.example/b.png","requireInteraction":true,
               "actions":[{"action":"buy","title":"Buy"}]},"fcm_options":{"link":"https://shop.example/sale"}}}}
            """#
        let pushed = try web(json)
        assertSameJSON(.object(pushed.wire), #"""
            {"from":"123456789012","priority":"high","data":{"sku":"9"},"fcmMessageId":"6810356097230477954",
             "notification":{"title":"Sale","body":"50% off","icon":"https://shop.example/i.png","badge":"https://shop.example/b.png",
              "requireInteraction":true,"actions":[{"action":"buy","title":"Buy"}],"click_action":"https://shop.example/sale"}}
            """#, "web wire")
        assertSameJSON(pushed.messagePayload, #"""
            {"from":"123456789012","messageId":"6810356097230477954","data":{"sku":"9"},
             "notification":{"title":"Sale","body":"50% off","icon":"https://shop.example/i.png"},
             "fcmOptions":{"link":"https://shop.example/sale"}}
            """#, "MessagePayload")
        XCTAssertEqual(pushed.ttlSeconds, 600)
        assertSameJSON(try android(json).remoteMessage, #"""
            {\#(base),"ttl":2419200,"collapseKey":"com.example.app","priority":1,"originalPriority":1,
             "data":{"sku":"1","src":"x"},"notification":{"title":"Sale","body":"50% off"}}
            """#, "RemoteMessage")
    }

    func testG7AndroidOnlyRichNotification() throws {
        let json = #"""
            {"message":{"token":"T","android":{"notification":{"title_loc_key":"t_key","title_loc_args":["Ana"],
             "body_loc_key":"b_key","body_loc_args":["3"],"ticker":"tick","sticky":true,"local_only":true,"default_sound":true,
             "default_vibrate_timings":true,"notification_priority":"PRIORITY_HIGH","visibility":"PUBLIC",
             "event_time":"2026-11-22T10:00:00Z","vibrate_timings":["0.5s","1s"],
             "light_settings":{"color":{"red":1,"green":0,"blue":0,"alpha":1},"light_on_duration":"1s","light_off_duration":"2s"}}}}}
            """#
        let converted = try android(json)
        let notificationExtras = converted.extras.filter {
            $0.key.hasPrefix("gcm.notification.") && $0.key != "gcm.notification.e"
        }
        assertSameJSON(
            .object(JSONObject(notificationExtras.map { JSONObject.Member(key: $0.key, value: .string($0.value)) })), #"""
            {"gcm.notification.title_loc_key":"t_key","gcm.notification.title_loc_args":"[\"Ana\"]",
             "gcm.notification.body_loc_key":"b_key","gcm.notification.body_loc_args":"[\"3\"]","gcm.notification.ticker":"tick",
             "gcm.notification.sticky":"true","gcm.notification.local_only":"true","gcm.notification.default_sound":"true",
             "gcm.notification.default_vibrate_timings":"true","gcm.notification.notification_priority":"1",
             "gcm.notification.visibility":"1","gcm.notification.event_time":"1795341600000",
             "gcm.notification.vibrate_timings":"[\"500\",\"1000\"]","gcm.notification.light_settings":"[\"#FFFF0000\",\"1000\",\"2000\"]"}
            """#, "notification extras")
        assertSameJSON(converted.remoteMessage["notification"] ?? .null, #"""
            {"titleLocalizationKey":"t_key","titleLocalizationArgs":["Ana"],"bodyLocalizationKey":"b_key",
             "bodyLocalizationArgs":["3"],"ticker":"tick","sticky":true,"localOnly":true,"defaultSound":true,
             "defaultVibrateSettings":true,"notificationPriority":1,"visibility":1,"eventTime":1795341600000,
             "vibrateTimings":[500,1000],"lightSettings":[-65536,1000,2000]}
            """#, "RemoteMessage.Notification")
    }

    func testG8DeletedMessagesSignal() {
        let extras = AndroidConversion.deletedMessages(facts: facts)
        let json = RemoteMessageGettersProbe.json(extras)
        XCTAssertEqual(json["messageType"], .string("deleted_messages"))
        XCTAssertEqual(extras.first { $0.key == "message_type" }?.value, "deleted_messages")
    }
}

/// `RemoteMessage`'s getters over any extras, through `AndroidMessage`.
private enum RemoteMessageGettersProbe {
    static func json(_ extras: [FCMStringPair]) -> JSONValue {
        AndroidMessage(extras: extras, isNotification: false, collapseKey: nil, ttlSeconds: 0, priority: "normal").remoteMessage
    }
}
