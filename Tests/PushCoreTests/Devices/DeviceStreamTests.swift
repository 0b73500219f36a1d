import Dispatch
import PushCore
import Synchronization
import XCTest

/// Collects what a stream listener receives.
final class EventRecorder: Sendable {
    private let events = Mutex<[DeviceEvent]>([])

    var received: [DeviceEvent] { events.withLock { $0 } }

    func record(_ event: DeviceEvent) {
        events.withLock { $0.append(event) }
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
        let stream = try! core.attachStream(project: "demo", token: "device-1") { _ in
            let count = (try? core.device(project: "demo", token: "device-1").get().pendingCount) ?? -1
            pendingSeen.withLock { $0.append(count) }
        }.get()
        sendFCM(core)
        XCTAssertEqual(pendingSeen.withLock { $0 }, [0])
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
        XCTAssertEqual(core.attachStream(project: "demo", token: "nobody") { _ in }.failure, .notFound)
    }
}
