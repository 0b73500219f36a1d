import ByteCoding
import PushCore
import XCTest

/// Presentation notes (§6): kind, visibility, callback per app state, and each warning.
final class PresentationTests: XCTestCase {
    func notification(
        _ aps: JSONValue, extra: [(String, JSONValue)] = [], headers: [HeaderField]? = nil, bytes: Int? = nil
    ) -> APNsNotification {
        var payload = object(("aps", aps))
        for (key, value) in extra { payload[key] = value }
        let headers = headers ?? [HeaderField("apns-push-type", "alert"), HeaderField("apns-priority", "10")]
        if let bytes {
            // A custom key padded so that the serialized payload is exactly `bytes` long.
            payload["pad"] = .string("")
            let unpadded = APNsNotification(headers: headers, payload: payload).payloadByteCount
            payload["pad"] = .string(String(repeating: "x", count: bytes - unpadded))
        }
        let made = APNsNotification(headers: headers, payload: payload)
        if let bytes { XCTAssertEqual(made.payloadByteCount, bytes) }
        return made
    }

    func warnings(_ notification: APNsNotification, origin: DeliveryOrigin = .apns) -> [String] {
        Presentation.describe(notification, origin: origin, appState: .background).warnings.map(\.code)
    }

    let alert = obj(("alert", obj(("title", str("Hi")))))

    func testAlertCallbacksFollowTheAppState() {
        let expected: [(AppState, Bool, String)] = [
            (.foreground, false, "userNotificationCenter(_:willPresent:)"),
            (.background, true, "userNotificationCenter(_:didReceive:)"),
            (.notRunning, true, "application(_:didFinishLaunchingWithOptions:)"),
        ]
        for (state, visible, callback) in expected {
            let presentation = Presentation.describe(notification(alert), origin: .fcm, appState: state)
            XCTAssertEqual(presentation.kind, .alert)
            XCTAssertEqual(presentation.visible, visible, "\(state)")
            XCTAssertEqual(presentation.callback, callback, "\(state)")
            XCTAssertEqual(presentation.warnings, [])
        }
    }

    func testBackgroundPushWakesTheAppUnlessItIsNotRunning() {
        let background = notification(
            obj(("content-available", num(1))),
            headers: [HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "5")])
        let fetch = "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"
        XCTAssertEqual(Presentation.describe(background, origin: .fcm, appState: .background).callback, fetch)
        XCTAssertEqual(Presentation.describe(background, origin: .fcm, appState: .foreground).callback, fetch)
        XCTAssertNil(Presentation.describe(background, origin: .fcm, appState: .notRunning).callback)
        let presentation = Presentation.describe(background, origin: .fcm, appState: .background)
        XCTAssertEqual(presentation.kind, .background)
        XCTAssertFalse(presentation.visible)
        XCTAssertEqual(presentation.warnings, [])
    }

    func testVoIPGoesToPushKit() {
        let voip = notification(obj(), headers: [HeaderField("apns-push-type", "voip"), HeaderField("apns-priority", "10")])
        let presentation = Presentation.describe(voip, origin: .apns, appState: .notRunning)
        XCTAssertEqual(presentation.kind, .voip)
        XCTAssertEqual(presentation.callback, "pushRegistry(_:didReceiveIncomingPushWith:for:completion:)")
    }

    func testBackgroundPushWithPriorityTen() {
        let push = notification(
            obj(("content-available", num(1))),
            headers: [HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "10")])
        XCTAssertEqual(warnings(push), ["backgroundWithHighPriority"])
    }

    func testAlertWithoutPushType() {
        XCTAssertEqual(warnings(notification(alert, headers: [])), ["missingPushType"])
    }

    func testImageWithoutMutableContent() {
        let image = [("fcm_options", obj(("image", str("https://example.com/a.png"))))]
        XCTAssertEqual(warnings(notification(alert, extra: image)), ["imageWithoutMutableContent"])
        let withExtension = obj(("alert", str("Hi")), ("mutable-content", num(1)))
        XCTAssertEqual(warnings(notification(withExtension, extra: image)), [])
    }

    func testCustomKeysInsideAPS() {
        let push = notification(obj(("alert", str("Hi")), ("orderId", str("42")), ("sound", str("default"))))
        let found = Presentation.describe(push, origin: .apns, appState: .background).warnings
        XCTAssertEqual(found, [.customKeysInAPS(["orderId"])])
        XCTAssertTrue(found[0].message.contains("orderId"))
    }

    func testCategoryWithoutAlert() {
        let push = notification(
            obj(("category", str("INVITE")), ("content-available", num(1))),
            headers: [HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "5")])
        XCTAssertEqual(warnings(push), ["categoryWithoutAlert"])
    }

    func testFCMDataOnlyWithoutContentAvailable() {
        let push = notification(
            obj(), extra: [("k", str("v"))],
            headers: [HeaderField("apns-push-type", "background"), HeaderField("apns-priority", "5")])
        XCTAssertEqual(warnings(push, origin: .fcm), ["dataOnlyWithoutContentAvailable"])
        let presentation = Presentation.describe(push, origin: .fcm, appState: .background)
        XCTAssertEqual(presentation.kind, .data)
        XCTAssertNil(presentation.callback)
        XCTAssertEqual(
            Presentation.describe(push, origin: .fcm, appState: .foreground).callback,
            "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
    }

    func testPayloadNearTheSizeLimit() {
        XCTAssertEqual(warnings(notification(alert, bytes: 3700)), ["payloadNearSizeLimit"])
        XCTAssertEqual(warnings(notification(alert, bytes: 3600)), [])
        let voip = notification(obj(), headers: [HeaderField("apns-push-type", "voip")], bytes: 4000)
        XCTAssertEqual(warnings(voip), [], "VoIP's limit is 5120")
    }

    func testWarningsNeverChangeDelivery() {
        let core = makeCore()
        register(core)
        let sent = sendFCM(core, headers: [HeaderField("apns-priority", "10")]).sent
        let delivery = sent!.deliveries(in: core)[0]
        XCTAssertEqual(
            delivery.presentation.warnings.map(\.code), ["backgroundWithHighPriority", "dataOnlyWithoutContentAvailable"])
        XCTAssertEqual(delivery.state, .pending)
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get().count, 1)
    }

    func testPresentationJSON() {
        let presentation = Presentation.describe(notification(alert, headers: []), origin: .apns, appState: .notRunning)
        XCTAssertEqual(
            presentation.json,
            obj(
                ("kind", str("alert")), ("visible", .bool(true)),
                ("callback", str("application(_:didFinishLaunchingWithOptions:)")),
                ("warnings", .array([obj(("code", str("missingPushType")), ("message", str(PresentationWarning.missingPushType.message)))]))))
    }
}
