import ByteCoding
import XCTest
@testable import PushCore

/// One row per validation rule: a request body → the HTTP status and exact body Google answers.
final class FCMSendRequestValidationTests: XCTestCase {
    /// JSON string contents, escaped by hand so the expectations do not depend on the serializer.
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A JSON front-end error: BadRequest detail only.
    private static func frontEnd(_ description: String, field: String?) -> String {
        let fieldPart = field.map { #""field":""# + quoted($0) + #"","# } ?? ""
        return #"{"error":{"code":400,"message":""# + quoted(description)
            + #"","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"#
            + fieldPart + #""description":""# + quoted(description) + #""}]}]}}"#
    }

    /// An error from FCM's own validation: BadRequest naming the field, then FcmError.
    private static func fcm(_ description: String, field: String) -> String {
        #"{"error":{"code":400,"message":""# + quoted(description)
            + #"","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":""#
            + quoted(field) + #"","description":""# + quoted(description)
            + #""}]},{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#
    }

    private static func message(_ fields: String) -> String {
        #"{"message":{"token":"t","# + fields + "}}"
    }

    private static let reservedKeyRule =
        "\": \"from\", \"message_type\" and keys starting with \"google\" or \"gcm\" are reserved."
    private static let labelRule = "\": use 1 to 50 of the characters a-z A-Z 0-9 - _ . ~ %."
    private static let topicRule = "\": use 1 to 900 of the characters a-z A-Z 0-9 - _ . ~ %, without the /topics/ prefix."

    /// Also the invalid part of `FCMSendRequestFastDecoderTests`' corpus.
    static let rows: [(name: String, body: String, status: Int, expected: String)] = [
        // fcm-v1.md's own example, written out in full.
        (
            "data value must be a string", #"{"message":{"token":"t","data":{"a":12}}}"#, 400,
            #"{"error":{"code":400,"message":"Invalid value at 'message.data[0].value' (TYPE_STRING), 12","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.data[0].value","description":"Invalid value at 'message.data[0].value' (TYPE_STRING), 12"}]}]}}"#
        ),
        (
            "data index is the key's position", message(#""data":{"a":"x","b":true}"#), 400,
            frontEnd("Invalid value at 'message.data[1].value' (TYPE_STRING), true", field: "message.data[1].value")
        ),
        (
            "data value null", message(#""data":{"a":null}"#), 400,
            frontEnd("Invalid value at 'message.data[0].value' (TYPE_STRING), null", field: "message.data[0].value")
        ),
        (
            "data value object", message(#""data":{"a":{}}"#), 400,
            frontEnd(
                "Invalid value at 'message.data[0].value' (TYPE_STRING), Starting an object on a scalar field",
                field: "message.data[0].value")
        ),
        (
            "data not an object", message(#""data":"a=b""#), 400,
            frontEnd(
                "Invalid value at 'message.data' (type.googleapis.com/google.firebase.fcm.v1.Message.DataEntry), \"a=b\"",
                field: "message.data")
        ),
        (
            "data is a list", message(#""data":["a"]"#), 400,
            frontEnd(
                "Invalid JSON payload received. Unknown name \"data\" at 'message': Proto field is not repeating, cannot start list.",
                field: "message")
        ),
        (
            "topic must be a string", #"{"message":{"topic":11}}"#, 400,
            frontEnd("Invalid value at 'message.topic' (TYPE_STRING), 11", field: "message.topic")
        ),
        (
            "notification.title must be a string", message(#""notification":{"title":12}"#), 400,
            frontEnd("Invalid value at 'message.notification.title' (TYPE_STRING), 12", field: "message.notification.title")
        ),
        (
            "notification.body object", message(#""notification":{"body":{"x":1}}"#), 400,
            frontEnd(
                "Invalid value at 'message.notification.body' (TYPE_STRING), Starting an object on a scalar field",
                field: "message.notification.body")
        ),
        (
            "notification must be an object", message(#""notification":"hi""#), 400,
            frontEnd(
                "Invalid value at 'message.notification' (type.googleapis.com/google.firebase.fcm.v1.Notification), \"hi\"",
                field: "message.notification")
        ),
        (
            "validate_only must be a bool", #"{"validate_only":"yes","message":{"token":"t"}}"#, 400,
            frontEnd("Invalid value at 'validate_only' (TYPE_BOOL), \"yes\"", field: "validate_only")
        ),
        (
            "android.priority enum", message(#""android":{"priority":"URGENT"}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), \"URGENT\"",
                field: "message.android.priority")
        ),
        (
            "android.priority unknown number", message(#""android":{"priority":7}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), 7",
                field: "message.android.priority")
        ),
        (
            "android.ttl must end with s", message(#""android":{"ttl":"10"}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), Illegal duration format; duration must end with 's'",
                field: "message.android.ttl")
        ),
        (
            "android.ttl seconds", message(#""android":{"ttl":"1h"}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), Illegal duration format; duration must end with 's'",
                field: "message.android.ttl")
        ),
        (
            "android.ttl bad seconds", message(#""android":{"ttl":"abcs"}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), Invalid duration format, failed to parse seconds",
                field: "message.android.ttl")
        ),
        (
            "android.ttl ten fraction digits", message(#""android":{"ttl":"1.1234567890s"}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), Invalid duration format, failed to parse nano seconds",
                field: "message.android.ttl")
        ),
        (
            "android.ttl as a number", message(#""android":{"ttl":3600}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), Invalid data type for duration, value is 3600",
                field: "message.android.ttl")
        ),
        (
            "android.ttl above 28 days", message(#""android":{"ttl":"2419200.5s"}"#), 400,
            fcm("Invalid TTL \"2419200.500s\": it must be between 0s and 2419200s (28 days).", field: "message.android.ttl")
        ),
        (
            "android.ttl negative", message(#""android":{"ttl":"-1s"}"#), 400,
            fcm("Invalid TTL \"-1s\": it must be between 0s and 2419200s (28 days).", field: "message.android.ttl")
        ),
        (
            "android.direct_boot_ok must be a bool", message(#""android":{"direct_boot_ok":1}"#), 400,
            frontEnd("Invalid value at 'message.android.direct_boot_ok' (TYPE_BOOL), 1", field: "message.android.direct_boot_ok")
        ),
        (
            "android.notification.visibility enum", message(#""android":{"notification":{"visibility":"HIDDEN"}}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.notification.visibility' (type.googleapis.com/google.firebase.fcm.v1.AndroidNotification.Visibility), \"HIDDEN\"",
                field: "message.android.notification.visibility")
        ),
        (
            "android.notification.notification_count int32", message(#""android":{"notification":{"notification_count":"many"}}"#),
            400,
            frontEnd(
                "Invalid value at 'message.android.notification.notification_count' (TYPE_INT32), \"many\"",
                field: "message.android.notification.notification_count")
        ),
        (
            "android.notification.body_loc_args elements", message(#""android":{"notification":{"body_loc_args":["a",2]}}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.notification.body_loc_args[1]' (TYPE_STRING), 2",
                field: "message.android.notification.body_loc_args[1]")
        ),
        (
            "android.notification.event_time", message(#""android":{"notification":{"event_time":"yesterday"}}"#), 400,
            frontEnd(
                "Invalid value at 'message.android.notification.event_time' (type.googleapis.com/google.protobuf.Timestamp), Invalid time format: Failed to parse input",
                field: "message.android.notification.event_time")
        ),
        (
            "apns.headers values are strings", message(#""apns":{"headers":{"apns-priority":10}}"#), 400,
            frontEnd("Invalid value at 'message.apns.headers[0].value' (TYPE_STRING), 10", field: "message.apns.headers[0].value")
        ),
        (
            "apns.payload must be an object", message(#""apns":{"payload":"aps"}"#), 400,
            frontEnd(
                "Invalid value at 'message.apns.payload' (type.googleapis.com/google.protobuf.Struct), \"aps\"",
                field: "message.apns.payload")
        ),
        (
            "apns.live_activity_token must be a string", message(#""apns":{"live_activity_token":false}"#), 400,
            frontEnd(
                "Invalid value at 'message.apns.live_activity_token' (TYPE_STRING), false",
                field: "message.apns.live_activity_token")
        ),
        (
            "webpush.headers values are strings", message(#""webpush":{"headers":{"TTL":60}}"#), 400,
            frontEnd("Invalid value at 'message.webpush.headers[0].value' (TYPE_STRING), 60", field: "message.webpush.headers[0].value")
        ),
        (
            "unknown field in message", message(#""foo":1"#), 400,
            frontEnd("Invalid JSON payload received. Unknown name \"foo\" at 'message': Cannot find field.", field: "message")
        ),
        (
            "unknown field at the top level", #"{"message":{"token":"t"},"dry_run":true}"#, 400,
            frontEnd("Invalid JSON payload received. Unknown name \"dry_run\": Cannot find field.", field: nil)
        ),
        (
            "unknown field in notification", message(#""notification":{"title":"t","sound":"default"}"#), 400,
            frontEnd(
                "Invalid JSON payload received. Unknown name \"sound\" at 'message.notification': Cannot find field.",
                field: "message.notification")
        ),
        (
            "unknown field in android", message(#""android":{"time_to_live":"1s"}"#), 400,
            frontEnd(
                "Invalid JSON payload received. Unknown name \"time_to_live\" at 'message.android': Cannot find field.",
                field: "message.android")
        ),
        (
            "unknown field in android.notification", message(#""android":{"notification":{"badge":1}}"#), 400,
            frontEnd(
                "Invalid JSON payload received. Unknown name \"badge\" at 'message.android.notification': Cannot find field.",
                field: "message.android.notification")
        ),
        (
            "unknown field in apns", message(#""apns":{"aps":{}}"#), 400,
            frontEnd("Invalid JSON payload received. Unknown name \"aps\" at 'message.apns': Cannot find field.", field: "message.apns")
        ),
        (
            "unknown field in apns.fcm_options", message(#""apns":{"fcm_options":{"imageUrl":"x"}}"#), 400,
            frontEnd(
                "Invalid JSON payload received. Unknown name \"imageUrl\" at 'message.apns.fcm_options': Cannot find field.",
                field: "message.apns.fcm_options")
        ),
        (
            "unknown field in webpush.fcm_options", message(#""webpush":{"fcm_options":{"url":"x"}}"#), 400,
            frontEnd(
                "Invalid JSON payload received. Unknown name \"url\" at 'message.webpush.fcm_options': Cannot find field.",
                field: "message.webpush.fcm_options")
        ),
        (
            "unknown field in fcm_options", message(#""fcm_options":{"label":"x"}"#), 400,
            frontEnd(
                "Invalid JSON payload received. Unknown name \"label\" at 'message.fcm_options': Cannot find field.",
                field: "message.fcm_options")
        ),
        (
            "a field through both of its names", message(#""fcm_options":{},"fcmOptions":{}"#), 400,
            frontEnd(
                "Invalid JSON payload received. Field 'fcm_options' at 'message' is set twice.", field: "message.fcm_options")
        ),
        (
            "root is not an object", "[]", 400,
            frontEnd("Invalid JSON payload received. Unknown name \"\": Root element must be a message.", field: nil)
        ),
        (
            "no target", #"{"message":{"notification":{"title":"t"}}}"#, 400,
            fcm("Recipient of the message is not set.", field: "message")
        ),
        ("empty body", "", 400, fcm("Recipient of the message is not set.", field: "message")),
        ("message null", #"{"message":null}"#, 400, fcm("Recipient of the message is not set.", field: "message")),
        ("empty token is unset", #"{"message":{"topic":null}}"#, 400, fcm("Recipient of the message is not set.", field: "message")),
        (
            "two targets", #"{"message":{"token":"t","topic":"news"}}"#, 400,
            frontEnd("Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'topic'", field: "message")
        ),
        (
            "fid and condition", #"{"message":{"fid":"f","condition":"'a' in topics"}}"#, 400,
            frontEnd(
                "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'condition'", field: "message")
        ),
        (
            "empty token", #"{"message":{"token":""}}"#, 400,
            #"{"error":{"code":400,"message":"The registration token is not a valid FCM registration token","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#
        ),
        (
            "empty fid", #"{"message":{"fid":""}}"#, 400,
            fcm("The installation ID is empty: set message.fid to a Firebase installation ID.", field: "message.fid")
        ),
        (
            "topic with the v0 prefix", #"{"message":{"topic":"/topics/news"}}"#, 400,
            fcm("Invalid topic name \"/topics/news" + topicRule, field: "message.topic")
        ),
        (
            "topic with a bad character", #"{"message":{"topic":"news!"}}"#, 400,
            fcm("Invalid topic name \"news!" + topicRule, field: "message.topic")
        ),
        (
            "empty topic", #"{"message":{"topic":""}}"#, 400,
            fcm("Invalid topic name \"" + topicRule, field: "message.topic")
        ),
        (
            // The length rule is the subscriptions' one: a send once took any length.
            "topic of 901 characters", #"{"message":{"topic":"\#(String(repeating: "a", count: 901))"}}"#, 400,
            fcm("Invalid topic name \"\(String(repeating: "a", count: 901))" + topicRule, field: "message.topic")
        ),
        (
            "empty condition", #"{"message":{"condition":"  "}}"#, 400,
            fcm("The condition is empty: write e.g. \"'news' in topics && 'sports' in topics\".", field: "message.condition")
        ),
        (
            "condition with a lone ampersand", #"{"message":{"condition":"'a' in topics & 'b' in topics"}}"#, 400,
            #"{"error":{"code":400,"message":"A single `&` at offset 14: write `&&` for and.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.condition","description":"A single `&` at offset 14: write `&&` for and."}]},{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#
        ),
        (
            "condition with six topics",
            #"{"message":{"condition":"'a' in topics && 'b' in topics && 'c' in topics && 'd' in topics && 'e' in topics && 'f' in topics"}}"#,
            400,
            fcm(
                "The condition uses 6 topics; FCM allows at most 5. The first one over is at offset 85:"
                    + " split the message into several sends.",
                field: "message.condition")
        ),
        (
            "reserved data key from", message(#""data":{"a":"1","from":"x"}"#), 400,
            fcm("Invalid data payload key \"from" + reservedKeyRule, field: "message.data[1].key")
        ),
        (
            "reserved data key message_type", message(#""data":{"message_type":"x"}"#), 400,
            fcm("Invalid data payload key \"message_type" + reservedKeyRule, field: "message.data[0].key")
        ),
        (
            "reserved data key prefix google", message(#""data":{"google.c.a.e":"1"}"#), 400,
            fcm("Invalid data payload key \"google.c.a.e" + reservedKeyRule, field: "message.data[0].key")
        ),
        (
            "reserved data key prefix gcm", message(#""data":{"gcm.message_id":"1"}"#), 400,
            fcm("Invalid data payload key \"gcm.message_id" + reservedKeyRule, field: "message.data[0].key")
        ),
        (
            "reserved key in android.data", message(#""android":{"data":{"from":"x"}}"#), 400,
            fcm("Invalid data payload key \"from" + reservedKeyRule, field: "message.android.data[0].key")
        ),
        (
            "analytics label too long", message(#""fcm_options":{"analytics_label":""# + String(repeating: "a", count: 51) + #""}"#),
            400,
            fcm(
                "Invalid analytics_label \"" + String(repeating: "a", count: 51) + labelRule,
                field: "message.fcm_options.analytics_label")
        ),
        (
            "analytics label bad character", message(#""apns":{"fcm_options":{"analytics_label":"a b"}}"#), 400,
            fcm("Invalid analytics_label \"a b" + labelRule, field: "message.apns.fcm_options.analytics_label")
        ),
        (
            "android analytics label", message(#""android":{"fcm_options":{"analytics_label":"a/b"}}"#), 400,
            fcm("Invalid analytics_label \"a/b" + labelRule, field: "message.android.fcm_options.analytics_label")
        ),
        (
            "malformed JSON", #"{"message": }"#, 400,
            #"{"error":{"code":400,"message":"Invalid JSON payload received. Expected a value.\n{\"message\": }\n            ^","status":"INVALID_ARGUMENT"}}"#
        ),
        (
            "truncated JSON", #"{"message": {"token": "t""#, 400,
            #"{"error":{"code":400,"message":"Invalid JSON payload received. Unexpected end of string. Expected , or } after key:value pair.\nsage\": {\"token\": \"t\"\n                    ^","status":"INVALID_ARGUMENT"}}"#
        ),
        (
            "duplicate JSON key", #"{"message":{"token":"a","token":"b"}}"#, 400,
            #"{"error":{"code":400,"message":"Invalid JSON payload received. Duplicate key \"token\".\nssage\":{\"token\":\"a\",\"token\":\"b\"}}\n                    ^","status":"INVALID_ARGUMENT"}}"#
        ),
    ]

    func testEveryRuleAnswersGooglesError() {
        for row in Self.rows {
            do {
                let request = try FCMSendRequest(body: Array(row.body.utf8))
                XCTFail("\(row.name): accepted as \(request)")
            } catch {
                XCTAssertEqual(error.httpStatus, row.status, row.name)
                XCTAssertEqual(error.json.jsonString, row.expected, row.name)
            }
        }
    }

    func testReportsEveryFrontEndFaultAtOnce() {
        let body = #"{"message":{"token":"t","foo":1,"notification":{"title":2}},"bar":true}"#
        XCTAssertThrowsError(try FCMSendRequest(body: Array(body.utf8))) { error in
            let error = error as! GoogleError
            let descriptions = [
                "Invalid JSON payload received. Unknown name \"foo\" at 'message': Cannot find field.",
                "Invalid value at 'message.notification.title' (TYPE_STRING), 2",
                "Invalid JSON payload received. Unknown name \"bar\": Cannot find field.",
            ]
            XCTAssertEqual(error.message, descriptions.joined(separator: "\n"))
            XCTAssertEqual(
                error.details,
                [
                    GoogleErrorDetail.badRequest([
                        GoogleFieldViolation(field: "message", description: descriptions[0]),
                        GoogleFieldViolation(field: "message.notification.title", description: descriptions[1]),
                        GoogleFieldViolation(field: nil, description: descriptions[2]),
                    ])
                ])
        }
    }
}
