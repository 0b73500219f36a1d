import ByteCoding
@testable import PushCore
import XCTest

/// A delivery as an iOS Simulator push file: the payload, after the app's bundle id.
final class SimulatorPushFileTests: XCTestCase {
    private func notification(topic: String, pushType: String?) -> APNsNotification {
        var headers = [HeaderField("apns-topic", topic)]
        if let pushType { headers.append(HeaderField("apns-push-type", pushType)) }
        return APNsNotification(headers: headers, payload: JSONObject())
    }

    func testTheBundleIDIsTheTopicWithoutItsPushTypesSuffix() {
        let cases: [(topic: String, pushType: String?, bundle: String)] = [
            ("com.example.app", "alert", "com.example.app"),
            ("com.example.app", nil, "com.example.app"),
            ("com.example.app", "background", "com.example.app"),
            ("com.example.app.voip", "voip", "com.example.app"),
            ("com.example.app.push-type.liveactivity", "liveactivity", "com.example.app"),
            ("com.example.app.pushkit.fileprovider", "fileprovider", "com.example.app"),
            // A topic without the suffix its push type calls for is kept as it is.
            ("com.example.app", "voip", "com.example.app"),
        ]
        for (topic, pushType, bundle) in cases {
            XCTAssertEqual(SimulatorPushFile.bundleID(of: notification(topic: topic, pushType: pushType)), bundle, topic)
        }
    }

    func testTheFileIsTheTargetBundleThenThePayload() throws {
        let core = makeCore()
        register(core)
        guard case .accepted(let sent) = sendFCM(core, data: [("k", "v")]) else { return XCTFail() }
        let delivery = try XCTUnwrap(core.delivery(project: "demo", id: "d-\(sent.deliveryNumbers.lowerBound)"))
        guard case .object(let file) = SimulatorPushFile.json(for: delivery) else { return XCTFail() }
        XCTAssertEqual(file.members.first?.key, SimulatorPushFile.targetBundleKey)
        XCTAssertEqual(file.members.first?.value, .string(PushCoreConfiguration().defaultBundleID))
        XCTAssertEqual(Array(file.members.dropFirst()), delivery.notification.payload.members)
        XCTAssertNil(core.delivery(project: "demo", id: "d-0"))
        XCTAssertNil(core.delivery(project: "demo", id: "17"))
        XCTAssertNil(core.delivery(project: "other", id: "d-\(sent.deliveryNumbers.lowerBound)"))
    }
}
