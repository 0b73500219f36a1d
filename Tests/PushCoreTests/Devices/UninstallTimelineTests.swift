import ByteCoding
import PushCore
import XCTest

/// An uninstall that FCM and APNs notice late (docs/fcm.md, "Uninstalls and reinstalls"): sends
/// accepted, reaching nobody, until the device's `unregisterAfter` passes on the emulator's clock,
/// then UNREGISTERED and 410; a reinstall's new token beside the old one dying on its own schedule.
final class UninstallTimelineTests: XCTestCase {
    private let apnsToken = String(repeating: "cd", count: 32)

    private func fcm(_ core: PushEmulatorCore, _ token: String) -> SendOutcome<Never> {
        sendFCM(core, to: .token(token))
    }

    private func apns(_ core: PushEmulatorCore) -> Result<APNsRecipient, APNsRecipientError> {
        core.apnsRecipient(deviceToken: apnsToken, bundleID: nil, defaultProject: "demo")
    }

    func testTheTimelineOfADelayedUninstall() throws {
        let core = makeCore()
        _ = try core.registerDevice(
            project: "demo", DeviceRegistration(apnsToken: apnsToken, token: "device-1", unregisterAfterSeconds: 600)
        ).get()
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().unregisterAfterSeconds, 600)
        _ = try core.uninstallDevice(project: "demo", token: "device-1").get()
        let unregisteredFrom = Timestamp(secondsSinceEpoch: fixedNowSeconds + 600)
        // Each row: seconds after the uninstall, and whether a send is still accepted.
        for (after, accepted) in [(0, true), (300, true), (599, true), (600, false), (601, false), (86_400, false)] {
            core.resetClock()
            _ = core.advanceClock(seconds: Int64(after))
            let outcome = fcm(core, "device-1")
            if accepted {
                guard case .accepted(let sent) = outcome else { return XCTFail("\(after) s: \(outcome)") }
                XCTAssertTrue(sent.deliveryNumbers.isEmpty, "\(after) s: delivered to nobody")
                XCTAssertEqual(try apns(core).get(), APNsRecipient(project: "demo", device: nil), "\(after) s")
                guard case .accepted(let pushed) = sendAPNs(core, apnsToken: apnsToken, body: #"{"aps":{"alert":"hi"}}"#), pushed.deliveryNumbers.isEmpty else {
                    return XCTFail("\(after) s: the push")
                }
            } else {
                guard case .unreachable(.unregistered(let since)) = outcome else { return XCTFail("\(after) s: \(outcome)") }
                XCTAssertEqual(since, unregisteredFrom)
                XCTAssertEqual(apns(core), .failure(.unregistered(since: unregisteredFrom)), "\(after) s")
            }
        }
        // The accepted sends and pushes are in the log, found by the token.
        core.resetClock()
        let logged = try core.messages(project: "demo", filter: MessageLogFilter(token: "device-1")).items
        XCTAssertEqual(logged.count, 6)
        XCTAssertTrue(logged.allSatisfy { $0.deliveries.isEmpty })
    }

    func testTheDefaultIsTheOptionAndZeroIsAtOnce() throws {
        var configuration = PushCoreConfiguration()
        configuration.unregisterAfterSeconds = 60
        let core = makeCore(configuration)
        register(core, token: "device-1")
        register(core, token: "device-2")
        _ = try core.updateDevice(project: "demo", token: "device-2", unregisterAfterSeconds: .some(0)).get()
        _ = try core.uninstallDevice(project: "demo", token: "device-1").get()
        _ = try core.uninstallDevice(project: "demo", token: "device-2").get()
        guard case .accepted = fcm(core, "device-1") else { return XCTFail("the option's minute") }
        guard case .unreachable(.unregistered) = fcm(core, "device-2") else { return XCTFail("the device's 0") }
    }

    func testAReinstallGivesANewTokenAndTheOldOneDiesOnItsOwnSchedule() throws {
        let core = makeCore()
        _ = try core.registerDevice(
            project: "demo",
            DeviceRegistration(bundleID: "com.example.shop", apnsToken: apnsToken, token: "device-1", appState: .foreground, unregisterAfterSeconds: 120)
        ).get()
        _ = core.subscribe(project: "demo", registration: "device-1", topic: "news")
        let new = try core.reinstallDevice(project: "demo", token: "device-1").get()
        XCTAssertNotEqual(new.token, "device-1")
        XCTAssertEqual(new.bundleID, "com.example.shop")
        XCTAssertEqual(new.apnsToken, apnsToken)
        XCTAssertEqual(new.appState, .foreground)
        XCTAssertEqual(new.unregisterAfterSeconds, 120)
        XCTAssertEqual(new.topics, [])
        XCTAssertEqual(try apns(core).get().device?.token, new.token, "the APNs token is the new device's")
        guard case .accepted(let sent) = fcm(core, new.token), sent.deliveryNumbers.count == 1 else { return XCTFail("new token") }
        guard case .accepted(let old) = fcm(core, "device-1"), old.deliveryNumbers.isEmpty else { return XCTFail("old token, early") }
        _ = core.advanceClock(seconds: 121)
        guard case .unreachable(.unregistered) = fcm(core, "device-1") else { return XCTFail("old token, late") }
        guard case .accepted = fcm(core, new.token) else { return XCTFail("new token, late") }
        XCTAssertEqual(core.reinstallDevice(project: "demo", token: "device-1").failure, .lookup(.uninstalled(at: Timestamp(secondsSinceEpoch: fixedNowSeconds + 120))))
    }

    func testASnapshotKeepsTheSettingAndTheSchedule() throws {
        let core = makeCore()
        _ = try core.registerDevice(project: "demo", DeviceRegistration(token: "device-1", unregisterAfterSeconds: 600)).get()
        register(core, token: "device-2")
        _ = try core.updateDevice(project: "demo", token: "device-2", unregisterAfterSeconds: .some(30)).get()
        _ = try core.uninstallDevice(project: "demo", token: "device-1").get()
        let restored = makeCore()
        try restored.importState(core.exportState())
        XCTAssertEqual(try restored.device(project: "demo", token: "device-2").get().unregisterAfterSeconds, 30)
        guard case .accepted = fcm(restored, "device-1") else { return XCTFail("still accepted after the import") }
        _ = restored.advanceClock(seconds: 601)
        guard case .unreachable(.unregistered) = fcm(restored, "device-1") else { return XCTFail("unregistered later") }
    }

    func testALiveDeviceInAnotherProjectWinsOverOneUninstalledLately() throws {
        let core = makeCore()
        _ = try core.registerDevice(project: "demo", DeviceRegistration(apnsToken: apnsToken, token: "device-1", unregisterAfterSeconds: 600)).get()
        _ = try core.registerDevice(project: "other", DeviceRegistration(apnsToken: apnsToken, token: "device-2")).get()
        _ = try core.uninstallDevice(project: "demo", token: "device-1").get()
        XCTAssertEqual(try apns(core).get().project, "other")
        XCTAssertNotNil(try apns(core).get().device)
    }

    func testAPushUninstalledLatelyIsStillCheckedForItsTopicAndEnvironment() throws {
        let core = makeCore()
        _ = try core.registerDevice(
            project: "demo",
            DeviceRegistration(bundleID: "com.example.shop", apnsToken: apnsToken, token: "device-1", unregisterAfterSeconds: 600)
        ).get()
        _ = try core.updateDevice(project: "demo", token: "device-1", apnsEnvironment: .some(.development)).get()
        _ = try core.uninstallDevice(project: "demo", token: "device-1").get()
        func reach(_ bundleID: String, _ environment: APNsEnvironment) -> Result<APNsRecipient, APNsRecipientError> {
            core.apnsRecipient(deviceToken: apnsToken, bundleID: bundleID, environment: environment, defaultProject: "demo")
        }
        XCTAssertEqual(reach("com.example.other", .development), .failure(.notForTopic))
        XCTAssertEqual(reach("com.example.shop", .production), .failure(.otherEnvironment))
        XCTAssertEqual(reach("com.example.shop", .development), .success(APNsRecipient(project: "demo", device: nil)))
    }

    func testAMessageTheDeviceWouldRefuseIsStillRefused() throws {
        let core = makeCore()
        _ = try core.registerDevice(
            project: "demo",
            DeviceRegistration(platform: .android, bundleID: "com.example.app", token: "android-1", unregisterAfterSeconds: 600)
        ).get()
        _ = try core.uninstallDevice(project: "demo", token: "android-1").get()
        let body = Array(#"{"message":{"token":"android-1","data":{"a":"1"},"android":{"restricted_package_name":"com.example.other"}}}"#.utf8)
        let message = try FCMSendRequest(body: body).message
        guard case .rejected(let error) = core.send(project: "demo", message: message, requestBody: body) else {
            return XCTFail("accepted a message the device refuses")
        }
        XCTAssertTrue(error.message.hasPrefix("Invalid package name"))
        guard case .failure = core.checkSend(project: "demo", message: message) else { return XCTFail("validate_only accepted it") }
        let fine = Array(#"{"message":{"token":"android-1","data":{"a":"1"}}}"#.utf8)
        guard case .accepted = core.send(project: "demo", message: try FCMSendRequest(body: fine).message, requestBody: fine) else {
            return XCTFail("a fine message")
        }
    }
}
