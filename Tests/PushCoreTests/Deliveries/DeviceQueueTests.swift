import PushCore
import XCTest

/// The storage rules of §4, seen from the device's side.
final class DeviceQueueTests: XCTestCase {
    /// Outlives the 31 days the offline tests wait.
    let longLived = HeaderField("apns-expiration", String(fixedNowSeconds + 60 * 86_400))

    func notifications(_ result: Result<[DeviceEvent], DeviceLookupError>) -> [NotificationEvent] {
        ((try? result.get()) ?? []).compactMap(\.notification)
    }

    func states(_ core: PushEmulatorCore) -> [DeliveryState] {
        try! core.messages(project: "demo").items.reversed().flatMap { $0.deliveries.map(\.state) }
    }

    func testAHundredPendingAreAllDeliveredInSendOrder() {
        let core = makeCore()
        register(core)
        for index in 0..<100 { sendFCM(core, data: [("n", String(index))]) }
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 100)
        let events = try! core.connect(project: "demo", token: "device-1").get()
        XCTAssertEqual(events.count, 100)
        XCTAssertEqual(events.map { $0.notification?.payload["n"] }, (0..<100).map { str(String($0)) })
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 0)
        XCTAssertEqual(Set(states(core)), [.delivered])
    }

    func testMoreThanAHundredPendingAreDeletedWithOneSignal() {
        let core = makeCore()
        register(core)
        for index in 0..<101 { sendFCM(core, data: [("n", String(index))]) }
        let events = try! core.connect(project: "demo", token: "device-1").get()
        XCTAssertEqual(events, [.messagesDeleted(reason: .tooManyPending, count: 101)])
        XCTAssertEqual(Set(states(core)), [.deleted])
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get(), [], "the signal comes once")
    }

    func testMaxPendingIsConfigurable() {
        let core = makeCore(PushCoreConfiguration(maxPending: 2))
        register(core)
        for _ in 0..<3 { sendFCM(core) }
        XCTAssertEqual(
            try core.connect(project: "demo", token: "device-1").get(),
            [.messagesDeleted(reason: .tooManyPending, count: 3)])
    }

    func testSendToADeviceOfflineForMoreThanThirtyDaysIsAcceptedButDeleted() {
        let core = makeCore()
        register(core)
        core.advanceClock(seconds: 31 * 86_400)
        let sent = sendFCM(core).sent
        XCTAssertNotNil(sent, "FCM still answers 200")
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.deleted])
        XCTAssertEqual(
            try core.connect(project: "demo", token: "device-1").get(),
            [.messagesDeleted(reason: .offlineTooLong, count: 1)])
    }

    func testPendingMessagesOfADeviceThatStayedAwayTooLongAreDeletedOnConnect() {
        let core = makeCore()
        register(core)
        sendFCM(core, headers: [longLived])
        sendFCM(core, headers: [longLived])
        core.advanceClock(seconds: 31 * 86_400)
        sendFCM(core)
        XCTAssertEqual(
            try core.connect(project: "demo", token: "device-1").get(),
            [.messagesDeleted(reason: .offlineTooLong, count: 3)])
    }

    func testMessagesThatExpiredWhileAwayAreNotCountedAsDeleted() {
        let core = makeCore()
        register(core)
        sendFCM(core)  // expires after the default 30 days
        core.advanceClock(seconds: 31 * 86_400)
        sendFCM(core)
        XCTAssertEqual(
            try core.connect(project: "demo", token: "device-1").get(),
            [.messagesDeleted(reason: .offlineTooLong, count: 1)])
        XCTAssertEqual(states(core), [.expired, .deleted])
    }

    func testOfflineTimeCountsFromTheLastConnect() {
        let core = makeCore()
        register(core)
        core.advanceClock(seconds: 20 * 86_400)
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get(), [])
        XCTAssertEqual(
            try core.device(project: "demo", token: "device-1").get().lastConnectedAt,
            Timestamp(secondsSinceEpoch: fixedNowSeconds + 20 * 86_400))
        core.advanceClock(seconds: 20 * 86_400)
        sendFCM(core)
        XCTAssertEqual(notifications(core.connect(project: "demo", token: "device-1")).count, 1)
    }

    func testOfflineLimitIsConfigurable() {
        let core = makeCore(PushCoreConfiguration(offlineLimitSeconds: 3600))
        register(core)
        core.advanceClock(seconds: 3601)
        XCTAssertEqual(sendFCM(core).sent?.deliveries(in: core).map(\.state), [.deleted])
    }

    func testExpiredMessagesAreNotDelivered() {
        let core = makeCore()
        register(core)
        sendFCM(core, data: [("n", "short")], headers: [HeaderField("apns-expiration", String(fixedNowSeconds + 60))])
        sendFCM(core, data: [("n", "long")])
        core.advanceClock(seconds: 120)
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 1, "listing expires")
        let events = notifications(core.connect(project: "demo", token: "device-1"))
        XCTAssertEqual(events.map { $0.payload["n"] }, [str("long")])
        XCTAssertEqual(states(core), [.expired, .delivered])
    }

    func testExpirationZeroToAnOfflineDeviceIsDropped() {
        let core = makeCore()
        register(core)
        XCTAssertEqual(
            sendFCM(core, headers: [HeaderField("apns-expiration", "0")]).sent?.deliveries(in: core).map(\.state), [.dropped])
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get(), [])
    }

    func testExpirationZeroToAnOnlineDeviceIsDelivered() {
        let core = makeCore()
        register(core)
        let stream = try! core.attachStream(project: "demo", token: "device-1") { $1.finish(sent: true) }.get()
        defer { stream.close() }
        XCTAssertEqual(
            sendFCM(core, headers: [HeaderField("apns-expiration", "0")]).sent?.deliveries(in: core).map(\.state), [.delivered])
    }

    func testSameCollapseIDKeepsOnlyTheNewest() {
        let core = makeCore()
        register(core)
        for score in ["1-0", "1-1", "2-1"] {
            sendFCM(core, data: [("score", score)], headers: [HeaderField("apns-collapse-id", "match-42")])
        }
        sendFCM(core, data: [("other", "x")])
        let events = notifications(core.connect(project: "demo", token: "device-1"))
        XCTAssertEqual(events.map { $0.payload["score"] ?? $0.payload["other"] }, [str("2-1"), str("x")])
        XCTAssertEqual(states(core), [.collapsed, .collapsed, .delivered, .delivered])
        let first = try! core.messages(project: "demo").items.last!.deliveries[0]
        XCTAssertEqual(first.history.last?.reason, "replaced by d-2")
    }

    func testAPNsKeepsOneNotificationPerTopic() {
        let core = makeCore()
        register(core, apnsToken: "ab12")
        sendAPNs(core, apnsToken: "ab12", body: "first")
        sendAPNs(core, apnsToken: "AB12", body: "second")
        sendAPNs(core, apnsToken: "ab12", topic: "com.example.app.other", body: "other topic")
        let events = notifications(core.connect(project: "demo", token: "device-1"))
        XCTAssertEqual(
            events.map { $0.payload["aps"] }, [obj(("alert", str("second"))), obj(("alert", str("other topic")))])
        XCTAssertEqual(events.map(\.origin), [.apns, .apns])
    }

    func testAPNsDeliveriesDoNotCountTowardsFCMsPendingLimit() {
        let core = makeCore(PushCoreConfiguration(maxPending: 1))
        register(core, apnsToken: "ab12")
        sendAPNs(core, apnsToken: "ab12", body: "apple")
        sendFCM(core)
        XCTAssertEqual(notifications(core.connect(project: "demo", token: "device-1")).count, 2)
    }

    func testDeletionsAtSendAndAtConnectAddUpInOneSignal() {
        let core = makeCore(PushCoreConfiguration(maxPending: 1))
        register(core)
        sendFCM(core, headers: [longLived])
        sendFCM(core, headers: [longLived])
        core.advanceClock(seconds: 31 * 86_400)
        sendFCM(core)
        let events = try! core.connect(project: "demo", token: "device-1").get()
        XCTAssertEqual(events, [.messagesDeleted(reason: .offlineTooLong, count: 3)])
    }

    func testConnectDeliversTheSignalBeforeNewerMessages() {
        let core = makeCore()
        register(core, apnsToken: "ab12")
        core.advanceClock(seconds: 31 * 86_400)
        sendFCM(core)
        sendAPNs(core, apnsToken: "ab12", body: "still here")
        let events = try! core.connect(project: "demo", token: "device-1").get()
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events.first, .messagesDeleted(reason: .offlineTooLong, count: 1))
        XCTAssertEqual(events.last?.notification?.origin, .apns)
    }

    func testConnectingAnUnknownOrUninstalledDeviceFails() {
        let core = makeCore()
        XCTAssertEqual(core.connect(project: "demo", token: "nobody").failure, .notFound)
        register(core)
        _ = core.uninstallDevice(project: "demo", token: "device-1")
        XCTAssertEqual(
            core.connect(project: "demo", token: "device-1").failure,
            .uninstalled(at: Timestamp(millisecondsSinceEpoch: fixedWallTime)))
    }

    func testPresentationIsRecomputedForTheAppStateAtDelivery() {
        let core = makeCore()
        register(core, appState: .background)
        sendFCM(core, notification: .init(title: "Hi"), data: [])
        _ = core.updateDevice(project: "demo", token: "device-1", appState: .foreground)
        let event = notifications(core.connect(project: "demo", token: "device-1")).first
        XCTAssertEqual(event?.presentation.callback, "userNotificationCenter(_:willPresent:)")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
