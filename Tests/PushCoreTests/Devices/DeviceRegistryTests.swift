import PushCore
import XCTest

/// Registration, token modes and uninstall (§2).
final class DeviceRegistryTests: XCTestCase {
    func testRegistrationFillsDefaultsAndGeneratesARealisticToken() throws {
        let core = makeCore()
        let device = try core.registerDevice(project: "demo", DeviceRegistration(apnsToken: "ABCDEF01")).get()
        XCTAssertEqual(device.bundleID, "com.example.app")
        XCTAssertEqual(device.appState, .background)
        XCTAssertEqual(device.platform, .ios)
        XCTAssertEqual(device.apnsToken, "abcdef01")
        XCTAssertEqual(device.registeredAt, Timestamp(millisecondsSinceEpoch: fixedWallTime))
        XCTAssertNil(device.lastConnectedAt)
        XCTAssertTrue(device.token.contains(":APA91b"))
        XCTAssertEqual(try core.device(project: "demo", token: device.token).get(), device)
    }

    func testRegistrationRejectsBadAndDuplicateTokens() {
        let core = makeCore()
        register(core, apnsToken: "aa11")
        XCTAssertEqual(core.registerDevice(project: "demo", DeviceRegistration(token: "device-1")).failure, .tokenInUse)
        XCTAssertEqual(core.registerDevice(project: "demo", DeviceRegistration(token: "bad token")).failure, .malformedToken)
        XCTAssertEqual(
            core.registerDevice(project: "demo", DeviceRegistration(apnsToken: "xyz")).failure, .malformedAPNsToken)
        XCTAssertEqual(
            core.registerDevice(project: "demo", DeviceRegistration(apnsToken: "AA11")).failure, .apnsTokenInUse)
        XCTAssertNoThrow(try core.registerDevice(project: "other", DeviceRegistration(token: "device-1")).get())
    }

    func testLenientModeRegistersAWellFormedUnknownTokenOnSend() throws {
        let core = makeCore()
        let sent = sendFCM(core, to: .token("brand-new:APA91bXYZ")).sent
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.pending])
        let device = try core.device(project: "demo", token: "brand-new:APA91bXYZ").get()
        XCTAssertEqual(device.bundleID, "com.example.app")
        XCTAssertEqual(device.pendingCount, 1)
        XCTAssertEqual(sent?.deliveries(in: core).first?.notification.topic, "com.example.app")
    }

    func testLenientModeRejectsAMalformedToken() {
        let core = makeCore()
        guard case .unreachable(.invalidRegistration) = sendFCM(core, to: .token("not a token!")) else {
            return XCTFail("a malformed token must be invalid")
        }
        XCTAssertEqual(try core.devices(project: "demo").items, [])
    }

    func testStrictModeKnowsOnlyRegisteredDevices() {
        let core = makeCore(PushCoreConfiguration(tokenMode: .strict))
        guard case .unreachable(.invalidRegistration) = sendFCM(core, to: .token("unknown-token")) else {
            return XCTFail("strict mode must refuse unknown tokens")
        }
        XCTAssertEqual(checkTarget(core, .token("unknown-token")), .unreachable(.invalidRegistration))
        register(core)
        XCTAssertNotNil(sendFCM(core).sent)
    }

    func testUninstalledDevicesAreUnregisteredInBothModes() {
        for mode in TokenMode.allCases {
            let core = makeCore(PushCoreConfiguration(tokenMode: mode))
            register(core, apnsToken: "ab12")
            sendFCM(core)
            core.advanceClock(seconds: 5)
            XCTAssertNoThrow(try core.uninstallDevice(project: "demo", token: "device-1").get())
            let since = Timestamp(secondsSinceEpoch: fixedNowSeconds + 5)
            guard case .unreachable(.unregistered(since)) = sendFCM(core) else { return XCTFail("\(mode): token must be unregistered") }
            guard case .unreachable(.unregistered(since)) = sendAPNs(core, apnsToken: "ab12", body: "x") else {
                return XCTFail("\(mode): APNs token must be unregistered")
            }
            XCTAssertEqual(checkTarget(core, .token("device-1")), .unreachable(.unregistered(since: since)))
            XCTAssertEqual(core.device(project: "demo", token: "device-1").failure, .uninstalled(at: since))
            let stored = try! core.messages(project: "demo", filter: MessageLogFilter(token: "device-1")).items
            XCTAssertEqual(stored.flatMap(\.deliveries).map(\.state), [.dropped], "\(mode)")
        }
    }

    func testReRegisteringAnUninstalledTokenRevivesIt() {
        let core = makeCore()
        register(core)
        _ = core.uninstallDevice(project: "demo", token: "device-1")
        register(core)
        XCTAssertNotNil(sendFCM(core).sent)
    }

    func testAPNsSendsFindTheDeviceAndLenientModeRegistersNewOnes() throws {
        let core = makeCore()
        register(core, apnsToken: "ab12", project: "one")
        XCTAssertEqual(try core.apnsRecipient(deviceToken: "AB12", bundleID: nil, defaultProject: "apns").get().project, "one")
        XCTAssertEqual(try core.apnsRecipient(deviceToken: "cd34", bundleID: nil, defaultProject: "apns").get().project, "apns")
        let sent = core.send(
            project: "one", target: .apnsToken("cd34"), origin: .apns, request: obj(), implicitBundleID: "com.acme.app"
        ) { context -> Result<DeliveryContent?, Never> in
            .success(APNsNotification(headers: [HeaderField("apns-topic", context.bundleID)], payload: object()))
        }.sent
        XCTAssertEqual(sent?.deliveries(in: core, project: "one").count, 1)
        let device = try core.device(project: "one", token: sent!.deliveries(in: core, project: "one")[0].token).get()
        XCTAssertEqual(device.apnsToken, "cd34")
        XCTAssertEqual(device.bundleID, "com.acme.app")
        XCTAssertTrue(RegistrationToken.isWellFormed(device.token))
    }

    func testFIDTargetsAddressTheDeviceWithThatToken() {
        let core = makeCore()
        register(core, token: "f7Wfr_yqG00Gt6B9O7qI13")
        XCTAssertEqual(sendFCM(core, to: .fid("f7Wfr_yqG00Gt6B9O7qI13")).sent?.deliveries(in: core).count, 1)
    }

    func testPatchChangesAppStateAndBundleID() throws {
        let core = makeCore()
        register(core)
        let device = try core.updateDevice(
            project: "demo", token: "device-1", appState: .notRunning, bundleID: "com.acme.app"
        ).get()
        XCTAssertEqual(device.appState, .notRunning)
        XCTAssertEqual(device.bundleID, "com.acme.app")
        XCTAssertEqual(
            sendFCM(core, notification: .init(title: "x")).sent?.deliveries(in: core).first?.notification.topic, "com.acme.app")
        XCTAssertEqual(core.updateDevice(project: "demo", token: "nobody", appState: .foreground).failure, .notFound)
    }

    /// The notification service extension setting (the inbox's image preview): on unless the
    /// registration or a patch turns it off; a patch without it keeps it.
    func testNotificationServiceExtensionIsOnByDefaultAndPatchable() throws {
        let core = makeCore()
        XCTAssertTrue(register(core).hasNotificationServiceExtension)
        let without = try core.registerDevice(
            project: "demo", DeviceRegistration(token: "device-2", hasNotificationServiceExtension: false)).get()
        XCTAssertFalse(without.hasNotificationServiceExtension)
        XCTAssertEqual(without.json["notificationServiceExtension"], .bool(false))
        XCTAssertFalse(try core.updateDevice(project: "demo", token: "device-1", hasNotificationServiceExtension: false).get()
            .hasNotificationServiceExtension)
        XCTAssertFalse(try core.updateDevice(project: "demo", token: "device-1", appState: .foreground).get()
            .hasNotificationServiceExtension)
        XCTAssertTrue(try core.updateDevice(
            project: "demo", token: "device-1", bundleID: "com.acme.app", hasNotificationServiceExtension: true
        ).get().hasNotificationServiceExtension)
    }

    func testFailedNotificationBuildStoresNothing() {
        struct TooLarge: Error {}
        let core = makeCore()
        let outcome = core.send(project: "demo", target: .token("new-token"), origin: .fcm, request: obj()) {
            _ -> Result<DeliveryContent?, TooLarge> in .failure(TooLarge())
        }
        guard case .rejected = outcome else { return XCTFail("the builder's failure must be returned") }
        XCTAssertEqual(core.device(project: "demo", token: "new-token").failure, .notFound)
        XCTAssertEqual(try core.messages(project: "demo").items, [])
    }

    func testTopicSendsReachSubscribedDevicesOnly() {
        let core = makeCore()
        register(core)
        let sent = sendFCM(core, to: .topic("news")).sent
        XCTAssertEqual(sent?.deliveries(in: core), [], "no device is subscribed yet")
        XCTAssertEqual(try core.messages(project: "demo", filter: MessageLogFilter(topic: "news")).items.count, 1)
    }

    func testDeviceListPages() throws {
        let core = makeCore()
        for index in 1...5 { register(core, token: "device-\(index)") }
        let first = try core.devices(project: "demo", page: PageRequest(size: 2))
        XCTAssertEqual(first.items.map(\.token), ["device-1", "device-2"])
        let second = try core.devices(project: "demo", page: PageRequest(size: 2, token: first.nextPageToken))
        XCTAssertEqual(second.items.map(\.token), ["device-3", "device-4"])
        let last = try core.devices(project: "demo", page: PageRequest(size: 2, token: second.nextPageToken))
        XCTAssertEqual(last.items.map(\.token), ["device-5"])
        XCTAssertNil(last.nextPageToken)
        XCTAssertThrowsError(try core.devices(project: "demo", page: PageRequest(token: "garbage")))
        XCTAssertThrowsError(try core.devices(project: "demo", page: PageRequest(size: -1)))
    }

    func testDeviceJSON() throws {
        let core = makeCore()
        let device = register(core, apnsToken: "ab12")
        XCTAssertEqual(
            device.json,
            obj(
                ("token", str("device-1")), ("platform", str("ios")), ("bundleId", str("com.example.app")),
                ("apnsToken", str("ab12")), ("appState", str("background")), ("unregisterAfter", .null), ("apnsEnvironment", .null),
                ("notificationServiceExtension", .bool(true)),
                ("topics", .array([])),
                ("pendingCount", num(0)), ("inFlightCount", num(0)), ("connected", .bool(false)), ("registeredAt", str("2026-11-22T10:00:00Z")),
                ("lastConnectedAt", .null)))
    }
}
