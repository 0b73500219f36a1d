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

    /// Queued deliveries of several devices expire when the clock passes their expiry (not at
    /// it), each at the read that finds it due, earliest first, and the others stay queued in order.
    func testQueuedDeliveriesExpireWhenTheClockPassesTheirExpiry() throws {
        let core = makeCore()
        register(core, token: "device-1")
        register(core, token: "device-2")
        func expiring(in seconds: Int64) -> [HeaderField] {
            [HeaderField("apns-expiration", String(fixedNowSeconds + seconds))]
        }
        sendFCM(core, to: .token("device-1"), data: [("n", "1")], headers: expiring(in: 30))
        sendFCM(core, to: .token("device-2"), data: [("n", "2")], headers: expiring(in: 10))
        sendFCM(core, to: .token("device-1"), data: [("n", "3")], headers: expiring(in: 10))
        sendFCM(core, to: .token("device-1"), data: [("n", "4")])
        sendFCM(core, to: .token("device-2"), data: [("n", "5")], headers: expiring(in: 20))
        func pending(_ token: String) throws -> Int { try core.device(project: "demo", token: token).get().pendingCount }
        func expiredAt() -> [Int64?] {
            try! core.messages(project: "demo").items.reversed().map { message in
                message.deliveries[0].history.first { $0.state == .expired }.map { $0.at.secondsSinceEpoch - fixedNowSeconds }
            }
        }
        core.advanceClock(seconds: 10)
        XCTAssertEqual([try pending("device-1"), try pending("device-2")], [3, 2], "at its expiry a delivery is kept")
        core.advanceClock(seconds: 1)
        XCTAssertEqual([try pending("device-1"), try pending("device-2")], [2, 1])
        XCTAssertEqual(expiredAt(), [nil, 11, 11, nil, nil])
        core.advanceClock(seconds: 10)
        XCTAssertEqual(expiredAt(), [nil, 11, 11, nil, 21], "the log read expires too")
        XCTAssertEqual(try pending("device-2"), 0)
        core.advanceClock(seconds: 10)
        let events = notifications(core.connect(project: "demo", token: "device-1"))
        XCTAssertEqual(events.map { $0.payload["n"] }, [str("4")])
        XCTAssertEqual(expiredAt(), [31, 11, 11, nil, 21])
        XCTAssertEqual(states(core), [.expired, .expired, .expired, .delivered, .expired])
        let reasons = try core.messages(project: "demo").items.reversed().map { $0.deliveries[0].history.last?.reason }
        XCTAssertEqual(reasons[1], "apns-expiration passed while the device was offline")
    }

    /// Clearing the log keeps the queue, and what it keeps still expires on time.
    func testQueuedDeliveriesStillExpireAfterTheLogIsCleared() throws {
        let core = makeCore()
        register(core)
        sendFCM(core, data: [("n", "short")], headers: [HeaderField("apns-expiration", String(fixedNowSeconds + 10))])
        sendFCM(core, data: [("n", "long")])
        core.clearMessages(project: "demo")
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 2)
        core.advanceClock(seconds: 11)
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 1)
        XCTAssertEqual(notifications(core.connect(project: "demo", token: "device-1")).map { $0.payload["n"] }, [str("long")])
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

    /// `00` is the number 0 as well: now or never, not the epoch (which expired the notification
    /// even for a connected device).
    func testExpirationZeroSpelledWithTwoDigitsIsNowOrNever() {
        let core = makeCore()
        register(core)
        XCTAssertEqual(
            sendFCM(core, headers: [HeaderField("apns-expiration", "00")]).sent?.deliveries(in: core).map(\.state), [.dropped])
        let stream = try! core.attachStream(project: "demo", token: "device-1") { $1.finish(sent: true) }.get()
        defer { stream.close() }
        XCTAssertEqual(
            sendFCM(core, headers: [HeaderField("apns-expiration", "00")]).sent?.deliveries(in: core).map(\.state), [.delivered])
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
