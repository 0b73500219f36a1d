import Dispatch
import PushCore
import Synchronization
import XCTest

/// Collects what a stream listener receives.
final class EventRecorder: Sendable {
    private let events = Mutex<[DeviceEvent]>([])

    var received: [DeviceEvent] { events.withLock { $0 } }

    /// Records the event and settles it as sent, as a stream that wrote it would.
    func record(_ event: DeviceEvent, _ receipt: StreamReceipt) {
        events.withLock { $0.append(event) }
        receipt.finish(sent: true)
    }
}

final class DeviceStreamTests: XCTestCase {
    func testStoredMessagesComeFirstThenNewOnesAtOnce() {
        let core = makeCore()
        register(core)
        sendFCM(core, data: [("n", "stored")])
        let recorder = EventRecorder()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: recorder.record).get()
        XCTAssertEqual(recorder.received.compactMap { $0.notification?.payload["n"] }, [str("stored")])
        let sent = sendFCM(core, data: [("n", "live")]).sent
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.delivered])
        XCTAssertEqual(recorder.received.compactMap { $0.notification?.payload["n"] }, [str("stored"), str("live")])
        XCTAssertTrue(try core.device(project: "demo", token: "device-1").get().isConnected)
        stream.close()
    }

    func testAfterCloseTheDeviceIsOfflineAgain() {
        let core = makeCore()
        register(core)
        let recorder = EventRecorder()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: recorder.record).get()
        core.advanceClock(seconds: 60)
        stream.close()
        stream.close()
        let device = try! core.device(project: "demo", token: "device-1").get()
        XCTAssertFalse(device.isConnected)
        XCTAssertEqual(device.lastConnectedAt, Timestamp(secondsSinceEpoch: fixedNowSeconds + 60))
        XCTAssertEqual(sendFCM(core).sent?.deliveries(in: core).map(\.state), [.pending])
        XCTAssertEqual(recorder.received, [])
    }

    func testEveryOpenStreamOfTheDeviceGetsTheEvent() {
        let core = makeCore()
        register(core)
        let first = EventRecorder()
        let second = EventRecorder()
        let streams = [first, second].map {
            try! core.attachStream(project: "demo", token: "device-1", listener: $0.record).get()
        }
        sendFCM(core)
        XCTAssertEqual(first.received.count, 1)
        XCTAssertEqual(first.received, second.received)
        streams[0].close()
        XCTAssertTrue(try core.device(project: "demo", token: "device-1").get().isConnected)
        streams[1].close()
        XCTAssertFalse(try core.device(project: "demo", token: "device-1").get().isConnected)
    }

    func testAListenerMayCallBackIntoTheCore() {
        let core = makeCore()
        register(core)
        let pendingSeen = Mutex<[Int]>([])
        let stream = try! core.attachStream(project: "demo", token: "device-1") { _, receipt in
            let count = (try? core.device(project: "demo", token: "device-1").get().pendingCount) ?? -1
            pendingSeen.withLock { $0.append(count) }
            receipt.finish(sent: true)
        }.get()
        sendFCM(core)
        // The delivery is on its way (pending) while the listener writes it, and delivered after.
        XCTAssertEqual(pendingSeen.withLock { $0 }, [1])
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 0)
        stream.close()
    }

    func testConcurrentSendsArriveOnceEachAndInLogOrder() {
        let core = makeCore()
        register(core)
        let recorder = EventRecorder()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: recorder.record).get()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            sendFCM(core, data: [("n", String(index))])
        }
        stream.close()
        let ids = recorder.received.compactMap { $0.notification?.id }
        XCTAssertEqual(ids.count, 200)
        let numbers = ids.map { Int($0.dropFirst(2))! }
        XCTAssertEqual(numbers, numbers.sorted(), "events keep the order the core accepted them in")
    }

    func testUninstallEndsTheStreamQuietly() {
        let core = makeCore()
        register(core)
        let recorder = EventRecorder()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: recorder.record).get()
        XCTAssertNoThrow(try core.uninstallDevice(project: "demo", token: "device-1").get())
        sendFCM(core)
        stream.close()
        XCTAssertEqual(recorder.received, [])
    }

    func testStreamingAnUnknownDeviceFails() {
        let core = makeCore()
        XCTAssertEqual(core.attachStream(project: "demo", token: "nobody") { _, _ in }.failure, .notFound)
    }

    // MARK: delivered only once sent

    /// Keeps the receipts a stream got, to settle them as its transport would.
    final class Receipts: Sendable {
        private let held = Mutex<[(DeviceEvent, StreamReceipt)]>([])
        func hold(_ event: DeviceEvent, _ receipt: StreamReceipt) { held.withLock { $0.append((event, receipt)) } }
        func settleAll(sent: Bool) {
            for (_, receipt) in held.withLock({ held in defer { held = [] }; return held }) { receipt.finish(sent: sent) }
        }
        var events: [DeviceEvent] { held.withLock { $0.map(\.0) } }
    }

    func testADeliveryIsDeliveredOnlyOnceItsStreamSentIt() {
        let core = makeCore()
        register(core)
        let receipts = Receipts()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: receipts.hold).get()
        let sent = sendFCM(core).sent
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.pending])
        receipts.settleAll(sent: true)
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.delivered])
        stream.close()
    }

    func testDeliveriesAStreamDidNotSendGoBackToPendingInSendOrder() {
        let core = makeCore()
        register(core)
        sendFCM(core, data: [("n", "1")])
        sendFCM(core, data: [("n", "2")])
        let receipts = Receipts()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: receipts.hold).get()
        sendFCM(core, data: [("n", "3")])
        XCTAssertEqual(receipts.events.count, 3)
        stream.close()
        receipts.settleAll(sent: false)
        let device = try! core.device(project: "demo", token: "device-1").get()
        XCTAssertEqual(device.pendingCount, 3)
        let again = try! core.connect(project: "demo", token: "device-1").get()
        XCTAssertEqual(again.compactMap { $0.notification?.payload["n"] }, [str("1"), str("2"), str("3")])
    }

    /// A device uninstalled while its stream held a delivery: the stream's receipt still settles
    /// it. It stayed pending for good, in no queue (found by `make stress`'s one-project run).
    func testADeliveryOnItsWayWhenTheDeviceIsUninstalledIsSettledByItsStream() {
        let core = makeCore()
        for (token, sent, state) in [("device-1", true, DeliveryState.delivered), ("device-2", false, .dropped)] {
            register(core, token: token)
            let receipts = Receipts()
            let stream = try! core.attachStream(project: "demo", token: token, listener: receipts.hold).get()
            let delivery = sendFCM(core, to: .token(token)).sent
            XCTAssertEqual(delivery?.deliveries(in: core).map(\.state), [.pending])
            _ = try! core.uninstallDevice(project: "demo", token: token).get()
            receipts.settleAll(sent: sent)
            XCTAssertEqual(delivery?.deliveries(in: core).map(\.state), [state], token)
            stream.close()
        }
    }

    func testADeliverySentByAnyOfTheDevicesStreamsIsDelivered() {
        let core = makeCore()
        register(core)
        let failing = Receipts()
        let working = Receipts()
        let streams = [failing, working].map { try! core.attachStream(project: "demo", token: "device-1", listener: $0.hold).get() }
        let sent = sendFCM(core).sent
        failing.settleAll(sent: false)
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.pending])
        working.settleAll(sent: true)
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.delivered])
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 0)
        streams.forEach { $0.close() }
    }

    func testAMessagesDeletedSignalThatWasNotSentIsOwedAgain() {
        var configuration = PushCoreConfiguration()
        configuration.maxPending = 2
        let core = makeCore(configuration)
        register(core)
        for _ in 0..<3 { sendFCM(core) }
        let receipts = Receipts()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: receipts.hold).get()
        XCTAssertEqual(receipts.events, [.messagesDeleted(reason: .tooManyPending, count: 3)])
        stream.close()
        receipts.settleAll(sent: false)
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get(), [.messagesDeleted(reason: .tooManyPending, count: 3)])
    }

    func testADeliveryOnItsWayIsNotExpiredAndExpiresOnceItComesBack() {
        let core = makeCore()
        register(core)
        let receipts = Receipts()
        let stream = try! core.attachStream(project: "demo", token: "device-1", listener: receipts.hold).get()
        let sent = sendFCM(core, headers: [HeaderField("apns-expiration", String(fixedNowSeconds + 60))]).sent
        core.advanceClock(seconds: 120)
        _ = try! core.messages(project: "demo")
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.pending])
        stream.close()
        receipts.settleAll(sent: false)
        _ = try! core.messages(project: "demo")
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.expired])
    }

    func testADeliveryOneStreamDidNotSendGoesToTheDevicesOtherOpenStream() {
        let core = makeCore()
        register(core)
        let old = Receipts()
        let oldStream = try! core.attachStream(project: "demo", token: "device-1", listener: old.hold).get()
        let sent = sendFCM(core).sent
        // The client reconnects before the old stream is found closed.
        let new = EventRecorder()
        let newStream = try! core.attachStream(project: "demo", token: "device-1", listener: new.record).get()
        XCTAssertEqual(new.received, [])
        oldStream.close()
        old.settleAll(sent: false)
        XCTAssertEqual(new.received.count, 1)
        XCTAssertEqual(sent?.deliveries(in: core).map(\.state), [.delivered])
        newStream.close()
    }
}
