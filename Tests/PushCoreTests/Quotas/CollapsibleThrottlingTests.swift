import ByteCoding
import PushCore
import XCTest

/// Collapsible-message throttling (docs/quotas.md): past a burst, a collapsible message to an
/// Android app is accepted and queued until its turn (one per refill), then handed over.
final class CollapsibleThrottlingTests: XCTestCase {
    private func core(burst: Int = 3, refillSeconds: Int = 180) -> PushEmulatorCore {
        var configuration = PushCoreConfiguration()
        configuration.quotaLimits = QuotaLimits(collapsibleBurst: burst, collapsibleRefillSeconds: refillSeconds)
        let core = makeCore(configuration)
        _ = try! core.registerDevice(project: "demo", DeviceRegistration(platform: .android, token: "android-1")).get()
        return core
    }

    /// Sends a data message with `collapseKey` (nil: not collapsible); returns its delivery.
    @discardableResult
    private func send(_ core: PushEmulatorCore, collapseKey: String?, ttl: String? = nil) -> Delivery? {
        var android: [String] = []
        if let collapseKey { android.append(#""collapse_key":"\#(collapseKey)""#) }
        if let ttl { android.append(#""ttl":"\#(ttl)""#) }
        let json = #"{"message":{"token":"android-1","data":{"k":"v"},"android":{\#(android.joined(separator: ","))}}}"#
        let body = Array(json.utf8)
        guard case .accepted(let sent) = core.send(project: "demo", message: try! FCMSendRequest(body: body).message, requestBody: body),
            let number = sent.deliveryNumbers.first
        else {
            XCTFail("not accepted")
            return nil
        }
        return core.delivery(project: "demo", id: "d-\(number)")
    }

    private func state(_ core: PushEmulatorCore, _ delivery: Delivery?) -> DeliveryState? {
        delivery.flatMap { core.delivery(project: "demo", id: $0.id)?.state }
    }

    private func at(_ seconds: Int64) -> Timestamp { Timestamp(secondsSinceEpoch: fixedNowSeconds + seconds) }

    /// The table: a burst of 3 goes at once, then one every 180 s, each released on the clock.
    func testABurstThenOneEveryRefill() throws {
        let core = core()
        let recorder = EventRecorder()
        let stream = try core.attachStream(project: "demo", token: "android-1", listener: recorder.record).get()
        defer { stream.close() }
        let sent = (1...6).map { send(core, collapseKey: "k\($0 % 4)") }
        // Each row: the message's delay (nil: none).
        XCTAssertEqual(sent.map { $0?.heldUntil }, [nil, nil, nil, at(180), at(360), at(540)])
        XCTAssertEqual(recorder.received.count, 3)
        XCTAssertEqual(core.delayedCollapsibleCount, 3)
        // Released as the clock reaches each one's time, not before.
        let rows: [(Int64, Int)] = [(179, 3), (1, 4), (179, 4), (1, 5), (180, 6)]
        for (seconds, received) in rows {
            core.advanceClock(seconds: seconds)
            XCTAssertEqual(recorder.received.count, received, "after \(seconds) more seconds")
        }
        XCTAssertEqual(sent.map { state(core, $0) }, Array(repeating: .delivered, count: 6))
        let json = try XCTUnwrap(core.delivery(project: "demo", id: sent[3]!.id)).json
        XCTAssertEqual(json["heldUntil"], .string(at(180).rfc3339))
        XCTAssertNil(core.delivery(project: "demo", id: sent[0]!.id)?.json["heldUntil"])
    }

    /// The burst refills with time; a message that replaces a delayed one takes its turn; TTL 0
    /// and messages without a collapse key are never delayed.
    func testRefillReplacementAndExemptions() throws {
        let core = core(burst: 2)
        let recorder = EventRecorder()
        let stream = try core.attachStream(project: "demo", token: "android-1", listener: recorder.record).get()
        defer { stream.close() }
        send(core, collapseKey: "a")
        send(core, collapseKey: "b")
        let held = send(core, collapseKey: "c")
        XCTAssertEqual(held?.heldUntil, at(180))
        // The same key again: replaces the delayed one and goes at its time, spending nothing more.
        let replacing = send(core, collapseKey: "c")
        XCTAssertEqual(state(core, held), .collapsed)
        XCTAssertEqual(replacing?.heldUntil, at(180))
        XCTAssertNil(send(core, collapseKey: nil)?.heldUntil)
        XCTAssertNil(send(core, collapseKey: "d", ttl: "0s")?.heldUntil)
        XCTAssertEqual(recorder.received.count, 4)
        XCTAssertEqual(send(core, collapseKey: "e")?.heldUntil, at(360))
        // Ten minutes later the burst has refilled: two go at once again.
        core.advanceClock(seconds: 600 + 360)
        XCTAssertEqual(recorder.received.count, 6)
        XCTAssertNil(send(core, collapseKey: "f")?.heldUntil)
        XCTAssertNil(send(core, collapseKey: "g")?.heldUntil)
        XCTAssertNotNil(send(core, collapseKey: "h")?.heldUntil)
    }

    /// A device offline gets a delayed message at its first connect after the message's time.
    func testAnOfflineDeviceGetsADelayedMessageAtItsTime() {
        let core = core(burst: 1)
        send(core, collapseKey: "a")
        let held = send(core, collapseKey: "b")
        XCTAssertEqual(held?.heldUntil, at(180))
        XCTAssertEqual(try core.connect(project: "demo", token: "android-1").get().count, 1)
        XCTAssertEqual(state(core, held), .pending)
        core.advanceClock(seconds: 180)
        XCTAssertEqual(state(core, held), .pending)
        XCTAssertEqual(try core.connect(project: "demo", token: "android-1").get().count, 1)
        XCTAssertEqual(state(core, held), .delivered)
    }

    /// A delayed message waits even on a stream open longer than the offline limit (it is not
    /// "offline too long"); one whose time to live runs out while it waits expires instead.
    func testAStreamOpenLongAndATimeToLiveShorterThanTheWait() throws {
        let core = core(burst: 1)
        let recorder = EventRecorder()
        let stream = try core.attachStream(project: "demo", token: "android-1", listener: recorder.record).get()
        defer { stream.close() }
        core.advanceClock(seconds: 31 * 86_400)
        send(core, collapseKey: "a")
        let waiting = send(core, collapseKey: "b")
        let shortLived = send(core, collapseKey: "c", ttl: "60s")
        XCTAssertEqual(state(core, waiting), .pending)
        XCTAssertEqual(recorder.received.count, 1)
        core.advanceClock(seconds: 360)
        XCTAssertEqual(state(core, waiting), .delivered)
        XCTAssertEqual(state(core, shortLived), .expired)
        XCTAssertEqual(recorder.received.count, 2)
    }

    /// A clock moved back starts the burst afresh; limits as large as the API allows do not trap.
    func testAClockMovedBackAndHugeLimits() {
        let core = core(burst: 1)
        core.advanceClock(seconds: 10 * 86_400)
        send(core, collapseKey: "a")
        XCTAssertNotNil(send(core, collapseKey: "b")?.heldUntil)
        core.resetClock()
        XCTAssertNil(send(core, collapseKey: "c")?.heldUntil)
        core.setQuotaLimits(project: "demo", QuotaLimits(collapsibleBurst: 1_000_000_000, collapsibleRefillSeconds: 1_000_000_000))
        for key in ["d", "e", "f"] { XCTAssertNil(send(core, collapseKey: key)?.heldUntil) }
        core.setQuotaLimits(project: "demo", QuotaLimits(collapsibleBurst: 1, collapsibleRefillSeconds: 1_000_000_000))
        send(core, collapseKey: "g")
        XCTAssertNotNil(send(core, collapseKey: "h")?.heldUntil)
    }

    /// Apple and web devices, and APNs pushes, are not throttled; a reset forgets what waits.
    func testOnlyAndroidFCMMessagesAreDelayed() throws {
        let core = core(burst: 1)
        _ = try core.registerDevice(project: "demo", DeviceRegistration(platform: .web, token: "web-1")).get()
        for _ in 0..<3 {
            let body = Array(#"{"message":{"token":"web-1","data":{"k":"v"},"webpush":{"headers":{"Topic":"t"}}}}"#.utf8)
            guard case .accepted(let sent) = core.send(project: "demo", message: try FCMSendRequest(body: body).message, requestBody: body)
            else { return XCTFail("not accepted") }
            XCTAssertNil(core.delivery(project: "demo", id: "d-\(sent.deliveryNumbers.first!)")?.heldUntil)
        }
        send(core, collapseKey: "a")
        XCTAssertNotNil(send(core, collapseKey: "a")?.heldUntil)
        core.resetProject("demo")
        // Nothing waits any more: the sweep finds nothing and costs nothing.
        core.releaseHeldDeliveries()
    }
}
