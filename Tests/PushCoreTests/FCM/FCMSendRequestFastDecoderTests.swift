import ByteCoding
import XCTest
@testable import PushCore

/// The fast decoder against the general path, which stays the reference: on every body the
/// fast path answers nil or exactly what `FCMSendRequest(json: JSONParser.parse(body))` gives,
/// and on the bodies clients send it answers.
final class FCMSendRequestFastDecoderTests: XCTestCase {
    /// What the general path makes of `body`, or nil when it rejects it.
    private func reference(_ body: [UInt8]) -> FCMSendRequest? {
        guard let json = try? JSONParser.parse(body) else { return nil }
        return try? FCMSendRequest(json: json)
    }

    /// Checks the fast path on `body` against the reference; returns whether it answered.
    @discardableResult
    private func check(_ body: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard let fast = FCMSendRequest.decodeWellFormed(body) else { return false }
        let text = String(decoding: body, as: UTF8.self)
        XCTAssertEqual(fast, reference(body), text, file: file, line: line)
        XCTAssertEqual(fast, try? FCMSendRequest(body: body), text, file: file, line: line)
        return true
    }

    private func assertFast(_ body: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotNil(reference(Array(body.utf8)), "the reference rejects \(body)", file: file, line: line)
        XCTAssertTrue(check(Array(body.utf8), file: file, line: line), "fast path declined \(body)", file: file, line: line)
    }

    /// Bodies the fast path must answer: the benchmark's, the Admin SDKs' usual shapes, every
    /// field of the v1 Message in both spellings, and the corners of strings and defaults.
    static let wellFormed: [String] = [
        #"{"message":{"token":"bench0000000000000000:APA91bBenchDeviceTokenForTheEmulatorBenchmark0123456789","notification":{"title":"Portugal vs. Denmark","body":"great match!"},"data":{"score":"3x1","customKey":"customValue"},"apns":{"headers":{"apns-priority":"10"},"payload":{"aps":{"badge":1,"sound":"default"}}}}}"#,
        FCMSendRequestTests.snakeCase,
        FCMSendRequestTests.camelCase,
        // firebase-admin (Python) as it encodes a Message: snake_case, validate_only when dry run.
        ##"{"message": {"token": "t:APA91", "notification": {"title": "Hi", "body": "There", "image": "https://x/y.png"}, "android": {"priority": "high", "ttl": "3600s", "notification": {"title": "a", "body": "b", "icon": "i", "color": "#f45342", "sound": "default", "tag": "t", "click_action": "OPEN", "body_loc_key": "k", "body_loc_args": ["1", "2"], "title_loc_key": "tk", "title_loc_args": [], "channel_id": "c", "ticker": "tick", "sticky": true, "event_time": "2024-01-02T03:04:05.678Z", "local_only": true, "notification_priority": "PRIORITY_HIGH", "vibrate_timings": ["1s", "0.5s"], "default_vibrate_timings": false, "default_sound": true, "default_light_settings": false, "light_settings": {"color": {"red": 0.1, "green": 0.2, "blue": 0.3, "alpha": 1.0}, "light_on_duration": "0.1s", "light_off_duration": "0.2s"}, "visibility": "PUBLIC", "notification_count": 3, "proxy": "DENY"}, "direct_boot_ok": true}, "apns": {"headers": {"apns-priority": "10", "apns-push-type": "alert"}, "payload": {"aps": {"alert": {"title": "t", "body": "b", "loc-args": ["x"]}, "badge": 42, "sound": {"critical": 1, "name": "s", "volume": 0.5}, "mutable-content": 1, "category": "c", "thread-id": "th"}, "customKey": {"nested": [null, true, 1e3]}}, "fcm_options": {"image": "https://x/a.png"}}, "webpush": {"headers": {"TTL": "300", "Urgency": "high"}, "data": {"k": "v"}, "notification": {"title": "w", "actions": [{"action": "a", "title": "A"}], "requireInteraction": true}, "fcm_options": {"link": "https://example.com/"}}, "fcm_options": {"analytics_label": "label"}}, "validate_only": true}"##,
        // firebase-admin 7.7 (Python) output, from _MessagingService.encode_message and json.dumps.
        ##"{"message": {"data": {"k": "v"}, "notification": {"body": "World", "title": "Hello"}, "token": "tok"}}"##,
        ##"{"message": {"android": {"collapse_key": "c", "data": {"a": "b"}, "notification": {"body": "b", "body_loc_args": ["1"], "body_loc_key": "bk", "click_action": "OPEN", "color": "#f45342", "icon": "i", "sound": "default", "tag": "tg", "title": "t", "title_loc_args": ["2"], "title_loc_key": "tk", "channel_id": "ch", "image": "https://x/i.png", "ticker": "tick", "sticky": true, "event_time": "2024-01-02T03:04:05.000000Z", "local_only": true, "notification_priority": "PRIORITY_HIGH", "vibrate_timings": ["0.100000000s", "0.200000000s"], "default_vibrate_timings": false, "default_sound": true, "default_light_settings": false, "light_settings": {"color": {"red": 0.6666666666666666, "green": 0.7333333333333333, "blue": 0.8, "alpha": 1.0}, "light_on_duration": "0.100000000s", "light_off_duration": "0.200000000s"}, "visibility": "PUBLIC", "notification_count": 3, "proxy": "ALLOW"}, "priority": "high", "restricted_package_name": "com.x", "ttl": "3600.500000000s", "fcm_options": {"analytics_label": "al"}, "direct_boot_ok": true}, "topic": "news"}, "validate_only": true}"##,
        ##"{"message": {"apns": {"headers": {"apns-priority": "10"}, "payload": {"aps": {"alert": {"title": "t", "subtitle": "s", "body": "b", "loc-key": "lk", "loc-args": ["x"], "launch-image": "li"}, "badge": 5, "sound": {"name": "default", "volume": 0.5, "critical": 1}, "category": "cat", "thread-id": "th", "content-available": 1, "mutable-content": 1, "x": 1}, "extra": {"custom": "v"}}, "fcm_options": {"analytics_label": "ios", "image": "https://x/a.png"}}, "condition": "'a' in topics && 'b' in topics"}}"##,
        ##"{"message": {"token": "tok", "webpush": {"data": {"w": "1"}, "headers": {"TTL": "300"}, "notification": {"actions": [{"action": "a", "title": "A", "icon": "ic"}], "badge": "bd", "body": "b", "data": {"x": 1}, "dir": "auto", "icon": "i", "image": "im", "lang": "en", "renotify": true, "requireInteraction": true, "silent": false, "tag": "tg", "timestamp": 123, "title": "t", "vibrate": [100], "c": "d"}, "fcm_options": {"link": "https://example.com"}}, "fcm_options": {"analytics_label": "all"}}, "validate_only": true}"##,
        // firebase-admin (Node) writes lowerCamelCase keys from the model.
        #"{"message":{"topic":"news","data":{"a":"1"},"android":{"collapseKey":"c","restrictedPackageName":"com.x","fcmOptions":{"analyticsLabel":"l"},"bandwidthConstrainedOk":true,"restrictedSatelliteOk":true,"data":{}},"apns":{"liveActivityToken":"lat","fcmOptions":{"analyticsLabel":"i","image":"https://x"},"payload":{"aps":{"content-available":1}}},"webpush":{"fcmOptions":{"link":"https://x","analyticsLabel":"w"}}},"validateOnly":false}"#,
        #"{"message":{"condition":"'a' in topics && ('b' in topics || 'c' in topics)"}}"#,
        #"{"message":{"fid":"installation-id"}}"#,
        #"{"message":{"name":"projects/p/messages/1","token":"x"}}"#,
        // Escapes, UTF-8 and whitespace of every kind, read as the parser reads them.
        "{ \"message\" :\n\t{\r\n \"token\" : \"t\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\" ,"
            + " \"data\" : { \"k\\u0041\" : \"caf\u{e9} \u{1F600}\" , \"\" : \"\" } } }\n",
        // proto3 defaults: read as unset, objects left empty.
        #"{"message":{"token":"t","notification":{"title":"","body":"","image":""},"android":{"collapse_key":"","direct_boot_ok":false,"notification":{}},"webpush":{},"apns":{"headers":{},"payload":{}},"fcm_options":{}},"validate_only":false}"#,
        #"{"message":{"token":"t","android":{"priority":"Normal"}}}"#,
        // A map past the size where duplicates are looked for through a set.
        #"{"message":{"token":"t","data":{"# + (0..<40).map { #""k\#($0)":"v\#($0)""# }.joined(separator: ",") + "}}}",
    ]

    func testAnswersWellFormedBodies() {
        for body in Self.wellFormed { assertFast(body) }
    }

    func testDeclinesWhatTheReferenceRejects() {
        for row in FCMSendRequestValidationTests.rows {
            XCTAssertNil(FCMSendRequest.decodeWellFormed(Array(row.body.utf8)), row.name)
        }
        let rejected = [
            "", " ", "{}", "[]", "null", #"{"message":{}}"#, #"{"message":{"token":"t"}} x"#,
            #"{"message":{"token":"t"},}"#, #"{"message":{"token":"t","topic":"u"}}"#,
            #"{"message":{"token":"t","token":"u"}}"#, #"{"message":{"token":"t","fcm_options":{},"fcmOptions":{}}}"#,
            #"{"message":{"token":"t","data":{"a":"1","a":"2"}}}"#,
            // Canonically equivalent keys are one key to Swift, and so to the parser.
            #"{"message":{"token":"t","data":{"K":"1","\u212A":"2"}}}"#,
            #"{"message":{"token":"t","data":{"a":1}}}"#, #"{"message":{"token":"t","android":{"ttl":""}}}"#,
            #"{"message":{"token":"t","android":{"ttl":"1"}}}"#, #"{"message":{"token":"t","android":{"priority":""}}}"#,
            #"{"message":{"token":"t","android":{"notification":{"color":1}}}}"#,
            #"{"message":{"token":"t","apns":{"payload":[]}}}"#, #"{"message":{"token":"t","apns":{"payload":{"a":1,"a":2}}}}"#,
            #"{"message":{"token":"t\u0000"},"validate_only":1}"#, "{\"message\":{\"token\":\"\u{1}\"}}",
            #"{"message":{"token":"\ud800"}}"#,
            #"{"message":{"topic":"/topics/x"}}"#, #"{"message":{"token":"t","data":{"google.x":"y"}}}"#,
        ]
        for body in rejected {
            XCTAssertNil(FCMSendRequest.decodeWellFormed(Array(body.utf8)), body)
        }
        XCTAssertNil(FCMSendRequest.decodeWellFormed([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]))
    }

    /// Valid but unusual: the fast path may decline these; when it answers, it must agree.
    func testAgreesOnUnusualBodies() {
        let unusual = [
            #"{"message":{"token":"t","notification":null}}"#, #"{"message":{"token":"t","android":{"priority":1}}}"#,
            #"{"message":{"tok\u0065n":"t"}}"#, "{\"message\":{\"token\":\"t\",\"android\":{\"collapse\u{212A}ey\":\"c\"}}}",
            #"{"message":{"token":"t"},"validate_only":null}"#, #"{"message":{"token":"t","data":{"K":"1","k":"2"}}}"#,
        ]
        for body in unusual {
            XCTAssertNotNil(reference(Array(body.utf8)), body)
            check(Array(body.utf8))
        }
    }

    /// Struct values are parsed at the depth the parser would be at, so the nesting limit holds.
    func testStructValuesKeepTheNestingLimit() {
        for depth in 94...98 {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let body = #"{"message":{"token":"t","apns":{"payload":{"a":"# + nested + "}}}}"
            let accepted = reference(Array(body.utf8)) != nil
            XCTAssertEqual(check(Array(body.utf8)), accepted, "depth \(depth)")
        }
    }

    /// Every one-byte edit of a few bodies: deleted, replaced by something significant, or cut there.
    func testAgreesOnEveryOneByteEdit() {
        let replacements: [UInt8] = Array(#", " { } [ ] 1 n t \ : x"#.utf8).filter { $0 != 0x20 } + [0x20, 0x00, 0xC3]
        for body in [Self.wellFormed[0], Self.wellFormed[5], Self.wellFormed[8], Self.wellFormed[12]] {
            let bytes = Array(body.utf8)
            for index in bytes.indices {
                var edited = bytes
                edited.remove(at: index)
                check(edited)
                check(Array(bytes[..<index]))
                for byte in replacements where byte != bytes[index] {
                    edited = bytes
                    edited[index] = byte
                    check(edited)
                }
            }
        }
    }
}
