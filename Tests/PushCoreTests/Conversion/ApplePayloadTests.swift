import ByteCoding
@testable import PushCore
import XCTest

/// The payload bytes the conversion writes: edge cases by hand, then many shapes against the
/// JSON tree the conversion used to build and serialize.
final class ApplePayloadTests: XCTestCase {
    let fcmTail = #""gcm.message_id":"m1","google.c.sender.id":"42""#

    func convert(
        notification: FCMNotification? = nil, data: [(key: String, value: String)] = [], payload: JSONObject? = nil,
        apnsImage: String? = nil, fid: String? = nil
    ) -> APNsNotification {
        AppleConversion.convert(input(notification: notification, data: data, payload: payload, apnsImage: apnsImage, fid: fid))
    }

    func input(
        notification: FCMNotification?, data: [(key: String, value: String)], payload: JSONObject?, apnsImage: String?,
        fid: String?
    ) -> AppleConversionInput {
        AppleConversionInput(
            notification: notification, data: data, apnsPayload: payload, apnsImage: apnsImage, fid: fid,
            messageID: "m1", senderID: "42", bundleID: "com.example.app", apnsID: "id-1",
            now: Timestamp(secondsSinceEpoch: fixedNowSeconds))
    }

    func text(_ notification: APNsNotification) -> String {
        String(decoding: notification.payloadBytes, as: UTF8.self)
    }

    func testDataKeyAPSIsDropped() {
        let result = convert(data: [("aps", "x"), ("k", "v")])
        XCTAssertEqual(text(result), #"{"aps":{},"k":"v","# + fcmTail + "}")
    }

    func testRepeatedDataKeyKeepsTheFirst() {
        let result = convert(data: [("k", "first"), ("k", "second")])
        XCTAssertEqual(text(result), #"{"aps":{},"k":"first","# + fcmTail + "}")
    }

    func testPayloadWithoutAPSGetsAnEmptyOne() {
        let result = convert(payload: object(("custom", num(1))))
        XCTAssertEqual(text(result), #"{"aps":{},"custom":1,"# + fcmTail + "}")
        XCTAssertEqual(result.pushType, "background")
    }

    func testNonObjectAPSIsReplacedByTheAlert() {
        let result = convert(notification: .init(body: "B"), payload: object(("aps", str("odd")), ("x", .null)))
        XCTAssertEqual(
            text(result), #"{"aps":{"alert":{"body":"B"}},"x":null,"gcm.message_id":"m1","google.c.a.e":"1","#
                + #""google.c.sender.id":"42"}"#)
    }

    func testGoogleFIDFromThePayloadStaysWithoutAFIDTarget() {
        let result = convert(payload: object(("google.c.fid", str("given"))))
        XCTAssertEqual(text(result), #"{"aps":{},"google.c.fid":"given","# + fcmTail + "}")
    }

    func testGoogleFIDFromThePayloadMovesToTheEndWithAFIDTarget() {
        let result = convert(payload: object(("google.c.fid", str("given")), ("k", str("v"))), fid: "target")
        XCTAssertEqual(text(result), #"{"aps":{},"k":"v","# + fcmTail + #","google.c.fid":"target"}"#)
    }

    func testFCMKeysInDataAreReplaced() {
        let result = convert(
            notification: .init(title: "T"),
            data: [("google.c.a.e", "0"), ("gcm.message_id", "x"), ("fcm_options", "y"), ("k", "v")])
        XCTAssertEqual(
            text(result), #"{"aps":{"alert":{"title":"T"}},"fcm_options":"y","k":"v","gcm.message_id":"m1","#
                + #""google.c.a.e":"1","google.c.sender.id":"42"}"#)
    }

    func testAlertObjectGetsOnlyWhatItLacks() {
        let payload = object(("aps", obj(("sound", str("s")), ("alert", obj(("title", str("Given")))))))
        let result = convert(notification: .init(title: "T", body: "B"), payload: payload)
        XCTAssertEqual(
            text(result), #"{"aps":{"sound":"s","alert":{"title":"Given","body":"B"}},"gcm.message_id":"m1","#
                + #""google.c.a.e":"1","google.c.sender.id":"42"}"#)
    }

    func testEmptyAlertObjectIsFilled() {
        let result = convert(notification: .init(title: "T"), payload: object(("aps", obj(("alert", obj())))))
        XCTAssertEqual(
            text(result), #"{"aps":{"alert":{"title":"T"}},"gcm.message_id":"m1","google.c.a.e":"1","#
                + #""google.c.sender.id":"42"}"#)
    }

    func testNotificationWithoutTextLeavesAPSAlone() {
        let result = convert(notification: .init(image: "i"), payload: object(("aps", obj(("badge", num(2))))))
        XCTAssertEqual(
            text(result), #"{"aps":{"badge":2},"gcm.message_id":"m1","google.c.a.e":"1","#
                + #""google.c.sender.id":"42","fcm_options":{"image":"i"}}"#)
        XCTAssertEqual(result.pushType, "alert")
    }

    func testEscapesAndUnicodeAreWrittenAsJSONRequires() {
        let result = convert(
            notification: .init(title: "Quote \" and \\", body: "Line\nTab\t\u{1}"),
            data: [("ключ", "日本語 🎉")], fid: "f\"id")
        XCTAssertEqual(
            text(result), #"{"aps":{"alert":{"title":"Quote \" and \\","body":"Line\nTab\t\u0001"}},"#
                + #""ключ":"日本語 🎉","gcm.message_id":"m1","google.c.a.e":"1","google.c.sender.id":"42","#
                + #""google.c.fid":"f\"id"}"#)
    }

    /// Longer than the first scratch buffer: the payload is written again at the size it needs,
    /// and comes out the same, in a buffer of its size.
    func testPayloadLongerThanEstimatedIsWrittenAgainWhole() {
        let controls = String(repeating: "\u{1}\"", count: 200)
        let shape = input(
            notification: .init(title: "T\\", body: controls), data: [("k", controls), ("short", "\n")],
            payload: object(("aps", obj(("alert", obj(("loc-key", str(controls))))))), apnsImage: nil, fid: "f")
        let written = ApplePayload(shape)
        XCTAssertLessThan(ApplePayload.firstScratchByteCount, written.bytes.count)
        XCTAssertEqual(String(decoding: written.bytes, as: UTF8.self), TreePayload.make(shape).jsonString)
        XCTAssertLessThanOrEqual(written.bytes.capacity, written.bytes.count + 16)
    }

    /// Random shapes, repeated keys and escapes included, against the former tree-based payload.
    func testManyShapesMatchTheTreeBuiltPayload() {
        var random = SeededRandomNumberGenerator(seed: 7)
        for round in 0..<3000 {
            let shape = Shape.random(using: &random)
            let converted = AppleConversion.convert(
                input(
                    notification: shape.notification, data: shape.data, payload: shape.payload,
                    apnsImage: shape.apnsImage, fid: shape.fid))
            let expected = TreePayload.make(
                input(
                    notification: shape.notification, data: shape.data, payload: shape.payload,
                    apnsImage: shape.apnsImage, fid: shape.fid))
            XCTAssertEqual(
                String(decoding: converted.payloadBytes, as: UTF8.self), expected.jsonString, "round \(round)")
            if case .object(let aps)? = expected.objectValue?["aps"] {
                let visible = aps["alert"] != nil || aps["sound"] != nil || aps["badge"] != nil
                XCTAssertEqual(converted.pushType, visible ? "alert" : "background", "round \(round)")
            }
        }
    }
}

/// One random conversion input's message parts.
private struct Shape {
    var notification: FCMNotification?
    var data: [(key: String, value: String)] = []
    var payload: JSONObject?
    var apnsImage: String?
    var fid: String?

    static let keys = [
        "aps", "k", "shared", "gcm.message_id", "google.c.a.e", "google.c.sender.id", "google.c.fid", "fcm_options",
        "ключ",
    ]
    static let apsKeys = ["alert", "badge", "sound", "category", "content-available", "alert"]
    static let texts = ["", "plain", "quote\"d", "back\\slash", "line\nbreak", "\u{1}\u{1f}", "é", "日本語", "🎉"]

    static func random(using random: inout SeededRandomNumberGenerator) -> Shape {
        var shape = Shape()
        if Bool.random(using: &random) {
            shape.notification = FCMNotification(
                title: maybeText(&random), body: maybeText(&random), image: maybeText(&random))
        }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            shape.data.append((keys.randomElement(using: &random)!, texts.randomElement(using: &random)!))
        }
        if Int.random(in: 0..<4, using: &random) > 0 {
            var members = [JSONObject.Member]()
            if Int.random(in: 0..<4, using: &random) > 0 {
                members.append(JSONObject.Member(key: "aps", value: aps(&random)))
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                members.append(JSONObject.Member(key: keys.randomElement(using: &random)!, value: value(&random, depth: 0)))
            }
            shape.payload = JSONObject(members.shuffled(using: &random))
        }
        shape.apnsImage = Bool.random(using: &random) ? nil : maybeText(&random)
        shape.fid = Bool.random(using: &random) ? nil : texts.randomElement(using: &random)
        return shape
    }

    static func maybeText(_ random: inout SeededRandomNumberGenerator) -> String? {
        Bool.random(using: &random) ? texts.randomElement(using: &random) : nil
    }

    static func aps(_ random: inout SeededRandomNumberGenerator) -> JSONValue {
        if Int.random(in: 0..<8, using: &random) == 0 { return value(&random, depth: 1) }
        var members = [JSONObject.Member]()
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let key = apsKeys.randomElement(using: &random)!
            let value: JSONValue
            if key == "alert" && Bool.random(using: &random) {
                var alert = [JSONObject.Member]()
                for alertKey in ["title", "body", "subtitle"] where Bool.random(using: &random) {
                    alert.append(JSONObject.Member(key: alertKey, value: .string(texts.randomElement(using: &random)!)))
                }
                value = .object(JSONObject(alert.shuffled(using: &random)))
            } else {
                value = Self.value(&random, depth: 1)
            }
            members.append(JSONObject.Member(key: key, value: value))
        }
        return .object(JSONObject(members))
    }

    static func value(_ random: inout SeededRandomNumberGenerator, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth < 2 ? 7 : 5), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(["0", "-1.5", "1e3", "42"].randomElement(using: &random)!)
        case 3, 4: return .string(texts.randomElement(using: &random)!)
        case 5:
            return .array((0..<Int.random(in: 0...2, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            return .object(
                JSONObject(
                    (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        JSONObject.Member(key: texts.randomElement(using: &random)!, value: value(&random, depth: depth + 1))
                    }))
        }
    }
}

/// The payload as the conversion built it before writing bytes directly: a JSON tree, kept here
/// as the reference for the writer's output.
private enum TreePayload {
    static func make(_ input: AppleConversionInput) -> JSONValue {
        let source = input.apnsPayload ?? JSONObject()
        var aps = JSONObject()
        if case .object(let given)? = source["aps"] { aps = given }
        if let notification = input.notification {
            aps = addingAlert(title: notification.title, body: notification.body, to: aps)
        }
        var payload = JSONObject([JSONObject.Member(key: "aps", value: .object(aps))])
        payload.members += source.members.filter { $0.key != "aps" }
        for entry in input.data where payload[entry.key] == nil {
            payload.members.append(JSONObject.Member(key: entry.key, value: .string(entry.value)))
        }
        setLast("gcm.message_id", .string(input.messageID), in: &payload)
        if input.notification != nil { setLast("google.c.a.e", .string("1"), in: &payload) }
        setLast("google.c.sender.id", .string(input.senderID), in: &payload)
        if let fid = input.fid { setLast("google.c.fid", .string(fid), in: &payload) }
        if let image = input.apnsImage ?? input.notification?.image {
            let options = JSONObject([JSONObject.Member(key: "image", value: .string(image))])
            setLast("fcm_options", .object(options), in: &payload)
        }
        return .object(payload)
    }

    static func addingAlert(title: String?, body: String?, to aps: JSONObject) -> JSONObject {
        var filled = [JSONObject.Member]()
        if let title { filled.append(JSONObject.Member(key: "title", value: .string(title))) }
        if let body { filled.append(JSONObject.Member(key: "body", value: .string(body))) }
        guard !filled.isEmpty else { return aps }
        var aps = aps
        switch aps["alert"] {
        case nil:
            aps.members.insert(JSONObject.Member(key: "alert", value: .object(JSONObject(filled))), at: 0)
        case .object(var alert)?:
            for member in filled where alert[member.key] == nil { alert[member.key] = member.value }
            aps["alert"] = .object(alert)
        default:
            break
        }
        return aps
    }

    static func setLast(_ key: String, _ value: JSONValue, in object: inout JSONObject) {
        object[key] = nil
        object.members.append(JSONObject.Member(key: key, value: value))
    }
}
