import PushCore
import XCTest

/// APNs sends into the device queues: the project lookup and Apple's store-one rule.
final class APNsDeliveryTests: XCTestCase {
    let apnsToken = String(repeating: "cd", count: 32)

    /// Sends through the provider API's path in the core, as the route does.
    @discardableResult
    func sendAPNs(
        _ core: PushEmulatorCore, _ extra: [HeaderField] = [], payload: String = #"{"aps":{"alert":"hi"}}"#,
        project: String = "demo"
    ) -> SendOutcome<APNsReason> {
        var request = try! APNsRequest(
            deviceToken: apnsToken, headers: [HeaderField("apns-topic", "com.example.app")] + extra, requiresTopic: true)
        let body = Array(payload.utf8)
        try! request.checkPayload(body)
        return core.send(
            project: project, target: .apnsToken(apnsToken), origin: .apns, requestBody: body,
            implicitBundleID: request.bundleID
        ) { context in .success(request.notification(payload: body, context: context)) }
    }

    func testThreePushesToAnOfflineDeviceLeaveOnlyTheLast() {
        let core = makeCore()
        register(core, apnsToken: apnsToken)
        for text in ["one", "two", "three"] { sendAPNs(core, payload: #"{"aps":{"alert":"\#(text)"}}"#) }
        let events = try! core.connect(project: "demo", token: "device-1").get().compactMap(\.notification)
        XCTAssertEqual(events.map { $0.payload["aps"] }, [obj(("alert", str("three")))])
        let states = try! core.messages(project: "demo").items.reversed().flatMap { $0.deliveries.map(\.state) }
        XCTAssertEqual(states, [.collapsed, .collapsed, .delivered])
    }

    func testOneIsStoredPerTopic() {
        let core = makeCore()
        register(core, apnsToken: apnsToken)
        sendAPNs(core)
        var voip = try! APNsRequest(
            deviceToken: apnsToken,
            headers: [HeaderField("apns-topic", "com.example.app.voip"), HeaderField("apns-push-type", "voip")],
            requiresTopic: true)
        let body = Array(#"{"call":"1"}"#.utf8)
        try! voip.checkPayload(body)
        _ = core.send(project: "demo", target: .apnsToken(apnsToken), origin: .apns, requestBody: body) {
            context -> Result<DeliveryContent?, APNsReason> in .success(voip.notification(payload: body, context: context))
        }
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 2)
    }

    func testExpirationZeroToAnOfflineDeviceIsNeverStored() {
        let core = makeCore()
        register(core, apnsToken: apnsToken)
        sendAPNs(core, [HeaderField("apns-expiration", "0")])
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get().count, 0)
        XCTAssertEqual(try core.messages(project: "demo").items[0].deliveries.map(\.state), [.dropped])
    }

    func testTheRequestsHeadersReachTheDeviceWithAGeneratedID() {
        let core = makeCore()
        register(core, apnsToken: apnsToken)
        sendAPNs(core, [HeaderField("apns-push-type", "alert"), HeaderField("apns-collapse-id", "score")])
        let event = try! core.connect(project: "demo", token: "device-1").get().compactMap(\.notification)[0]
        XCTAssertEqual(event.headers.map(\.name), ["apns-topic", "apns-push-type", "apns-collapse-id", "apns-id"])
        XCTAssertEqual(event.headers.value(named: "apns-id")?.count, 36)
        XCTAssertEqual(event.origin, .apns)
    }

    /// The generated id's position once had eight bits: the 256th header trapped.
    func testAGeneratedIDFollowsHundredsOfAPNsHeaders() {
        let core = makeCore()
        register(core, apnsToken: apnsToken)
        let extra = (0..<300).map { HeaderField("apns-x-\($0)", "\($0)") }
        guard case .accepted = sendAPNs(core, extra) else { return XCTFail("not accepted") }
        let event = try! core.connect(project: "demo", token: "device-1").get().compactMap(\.notification)[0]
        XCTAssertEqual(event.headers.map(\.name), ["apns-topic"] + extra.map(\.name) + ["apns-id"])
        XCTAssertEqual(event.headers.last?.value.count, 36)
    }

    /// Under `--apns-auth off` an empty `apns-topic` passes; the device gets its bundle id in its
    /// place, not a second `apns-topic` (its headers are a JSON object).
    func testAnEmptyTopicGivesWayToTheDevicesBundleID() throws {
        let core = makeCore()
        let device = register(core, apnsToken: apnsToken)
        var request = try APNsRequest(
            deviceToken: apnsToken, headers: [HeaderField("apns-topic", ""), HeaderField("apns-push-type", "alert")],
            requiresTopic: false)
        let body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        try request.checkPayload(body)
        _ = core.send(project: "demo", target: .apnsToken(apnsToken), origin: .apns, requestBody: body) {
            context -> Result<DeliveryContent?, APNsReason> in .success(request.notification(payload: body, context: context))
        }
        let event = try XCTUnwrap(core.connect(project: "demo", token: "device-1").get().compactMap(\.notification).first)
        XCTAssertEqual(event.headers.map(\.name), ["apns-topic", "apns-push-type", "apns-id"])
        XCTAssertEqual(event.headers.first?.value, device.bundleID)
    }

    /// Registration keeps an APNs token unique within a project only. A device that can take the
    /// push wins over a deleted device with the token, or one of another app, in a project looked
    /// at before it (the first refusal used to be the answer: 410 with a live device elsewhere).
    func testADeviceThatCanTakeThePushWinsOverOtherProjectsRefusals() {
        let core = makeCore()
        let since = Timestamp(millisecondsSinceEpoch: fixedWallTime)
        register(core, token: "device-a", apnsToken: apnsToken, project: "proj-a")
        register(core, token: "device-b", apnsToken: apnsToken, project: "proj-b")
        register(core, token: "device-c", apnsToken: apnsToken, project: "proj-c")
        _ = core.uninstallDevice(project: "proj-a", token: "device-a")
        _ = core.updateDevice(project: "proj-b", token: "device-b", bundleID: "com.other.app")
        XCTAssertEqual(
            core.apnsRecipient(deviceToken: apnsToken, bundleID: "com.example.app", defaultProject: "apns"),
            .success(APNsRecipient(project: "proj-c", device: KnownDevice(token: "device-c"))))
        XCTAssertEqual(
            core.apnsRecipient(deviceToken: apnsToken, bundleID: "com.other.app", defaultProject: "proj-c"),
            .success(APNsRecipient(project: "proj-b", device: KnownDevice(token: "device-b"))))
        // With no device to take it: one of another app says more than a deleted one.
        _ = core.uninstallDevice(project: "proj-c", token: "device-c")
        XCTAssertEqual(
            core.apnsRecipient(deviceToken: apnsToken, bundleID: "com.example.app", defaultProject: "apns"),
            .failure(.notForTopic))
        _ = core.uninstallDevice(project: "proj-b", token: "device-b")
        XCTAssertEqual(
            core.apnsRecipient(deviceToken: apnsToken, bundleID: "com.example.app", defaultProject: "apns"),
            .failure(.unregistered(since: since)))
    }

    func testTheProjectIsTheDevicesOrTheDefault() {
        let core = makeCore()
        XCTAssertEqual(
            core.apnsRecipient(deviceToken: apnsToken, bundleID: nil, defaultProject: "apns"),
            .success(APNsRecipient(project: "apns", device: nil)))
        register(core, apnsToken: apnsToken, project: "other")
        XCTAssertEqual(
            core.apnsRecipient(deviceToken: apnsToken.uppercased(), bundleID: "com.example.app", defaultProject: "apns"),
            .success(APNsRecipient(project: "other", device: KnownDevice(token: "device-1"))))
        XCTAssertEqual(core.apnsRecipient(deviceToken: apnsToken, bundleID: "com.other.app", defaultProject: "apns"), .failure(.notForTopic))
        _ = core.uninstallDevice(project: "other", token: "device-1")
        XCTAssertEqual(
            core.apnsRecipient(deviceToken: apnsToken, bundleID: "com.example.app", defaultProject: "apns"),
            .failure(.unregistered(since: Timestamp(millisecondsSinceEpoch: fixedWallTime))))
    }

    /// The device `apnsRecipient` found is only a hint: a send whose hint names a device without
    /// the APNs token (gone, or given the token since) goes where the token leads.
    func testASendWhoseKnownDeviceLacksTheAPNsTokenGoesToTheTokensDevice() throws {
        let core = makeCore()
        register(core, token: "device-1", apnsToken: apnsToken)
        register(core, token: "device-2", apnsToken: String(repeating: "ef", count: 32))
        let body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        for hint in ["device-2", "no-such-device", "device-1"] {
            let request = try APNsRequest(
                deviceToken: apnsToken, headers: [HeaderField("apns-topic", "com.example.app")], requiresTopic: true)
            guard case .accepted = core.send(
                project: "demo", target: .apnsToken(apnsToken), origin: .apns, requestBody: body,
                implicitBundleID: request.bundleID, knownDevice: KnownDevice(token: hint),
                makeContent: { context in Result<DeliveryContent?, APNsReason>.success(request.notification(payload: body, context: context)) })
            else { return XCTFail("not accepted with the hint \(hint)") }
        }
        // Apple's storage rule keeps one push per device and topic: device-1 holds the last one.
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get().compactMap(\.notification).count, 1)
        XCTAssertEqual(try core.connect(project: "demo", token: "device-2").get().compactMap(\.notification).count, 0)
        let logged = try core.messages(project: "demo").items
        XCTAssertEqual(logged.count, 3)
        XCTAssertEqual(logged.flatMap(\.deliveries).map(\.token), ["device-1", "device-1", "device-1"])
    }

    func testLenientModeRegistersAnUnknownTokenUnderTheTopicsBundleID() {
        let core = makeCore()
        var request = try! APNsRequest(
            deviceToken: apnsToken, headers: [HeaderField("apns-topic", "org.sample.chat.voip"), HeaderField("apns-push-type", "voip")],
            requiresTopic: true)
        let body = Array(#"{"call":1}"#.utf8)
        try! request.checkPayload(body)
        guard case .accepted = core.send(
            project: "apns", target: .apnsToken(apnsToken), origin: .apns, requestBody: body, implicitBundleID: request.bundleID,
            makeContent: { context in Result<DeliveryContent?, APNsReason>.success(request.notification(payload: body, context: context)) })
        else { return XCTFail("not accepted") }
        let device = try! core.devices(project: "apns").items[0]
        XCTAssertEqual(device.bundleID, "org.sample.chat")
        XCTAssertEqual(device.apnsToken, apnsToken)
    }
}
