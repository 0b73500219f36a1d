import ByteCoding
import PushCore
import XCTest

/// FCM's expiry of Android tokens after 270 days without a connection (docs/android.md, "Token
/// expiry"), on the emulator's clock: sends answer UNREGISTERED from that moment, the device and
/// its subscriptions are gone; a connection starts the 270 days again; other platforms never expire.
final class AndroidTokenExpiryTests: XCTestCase {
    private let day: Int64 = 86_400

    private func register(_ core: PushEmulatorCore, _ platform: Platform, _ token: String) {
        _ = try! core.registerDevice(project: "demo", DeviceRegistration(platform: platform, token: token)).get()
    }

    private func send(_ core: PushEmulatorCore, _ json: String) -> SendOutcome<GoogleError> {
        let body = Array(json.utf8)
        return core.send(project: "demo", message: try! FCMSendRequest(body: body).message, requestBody: body)
    }

    private func sendData(_ core: PushEmulatorCore, to token: String) -> SendOutcome<GoogleError> {
        send(core, #"{"message":{"token":"\#(token)","data":{"k":"v"}}}"#)
    }

    private func at(_ core: PushEmulatorCore, _ seconds: Int64) {
        core.resetClock()
        core.advanceClock(seconds: seconds)
    }

    private func expiry(_ seconds: Int64) -> Timestamp { Timestamp(secondsSinceEpoch: fixedNowSeconds + seconds) }

    /// The table: each platform's send before and after 270 days without a connection.
    func testAnAndroidTokenExpiresAfter270DaysWithoutAConnection() throws {
        let core = makeCore()
        register(core, .android, "android-1")
        register(core, .ios, "ios-1")
        register(core, .web, "web-1")
        XCTAssertEqual(try core.device(project: "demo", token: "android-1").get().tokenExpiresAt, expiry(270 * day))
        XCTAssertNil(try core.device(project: "demo", token: "ios-1").get().tokenExpiresAt)
        XCTAssertEqual(
            try core.device(project: "demo", token: "android-1").get().json["tokenExpiresAt"], .string(expiry(270 * day).rfc3339))
        XCTAssertNil(try core.device(project: "demo", token: "ios-1").get().json["tokenExpiresAt"])
        // A message queued before the expiry is dropped with it.
        guard case .accepted(let queued) = sendData(core, to: "android-1") else { return XCTFail("not accepted") }
        at(core, 270 * day - 1)
        XCTAssertNotNil(sendData(core, to: "android-1").sent)
        at(core, 270 * day)
        guard case .unreachable(.unregistered(let since)) = sendData(core, to: "android-1") else {
            return XCTFail("an expired token is unregistered")
        }
        XCTAssertEqual(since, expiry(270 * day))
        XCTAssertEqual(core.device(project: "demo", token: "android-1").failure, .uninstalled(at: expiry(270 * day)))
        XCTAssertEqual(core.delivery(project: "demo", id: "d-\(queued.deliveryNumbers.first!)")?.state, .dropped)
        XCTAssertEqual(
            core.delivery(project: "demo", id: "d-\(queued.deliveryNumbers.first!)")?.history.last?.reason,
            "token expired: no connection for 270 days")
        at(core, 400 * day)
        XCTAssertNotNil(sendData(core, to: "ios-1").sent)
        XCTAssertNotNil(sendData(core, to: "web-1").sent)
        // Registered again with its old token, the device is back, with 270 days from now.
        register(core, .android, "android-1")
        XCTAssertNotNil(sendData(core, to: "android-1").sent)
        XCTAssertEqual(try core.device(project: "demo", token: "android-1").get().tokenExpiresAt, expiry(670 * day))
    }

    /// A connect, or a stream while it is open, keeps the token alive; the 270 days start again
    /// from the last connection.
    func testConnectionsKeepTheTokenAlive() throws {
        let core = makeCore()
        register(core, .android, "polled")
        register(core, .android, "streamed")
        at(core, 100 * day)
        _ = try core.connect(project: "demo", token: "polled").get()
        let stream = try core.attachStream(project: "demo", token: "streamed", listener: EventRecorder().record).get()
        at(core, 369 * day)
        XCTAssertNotNil(sendData(core, to: "polled").sent)
        at(core, 370 * day)
        XCTAssertNil(sendData(core, to: "polled").sent)
        // Connected all along: never expires; closed on day 400, it expires on day 670.
        at(core, 400 * day)
        XCTAssertNotNil(sendData(core, to: "streamed").sent)
        stream.close()
        XCTAssertEqual(try core.device(project: "demo", token: "streamed").get().tokenExpiresAt, expiry(670 * day))
        at(core, 670 * day)
        XCTAssertEqual(core.connect(project: "demo", token: "streamed").failure, .uninstalled(at: expiry(670 * day)))
    }

    /// A topic send skips an expired device, which loses its subscriptions; the device list
    /// no longer shows it; a snapshot keeps the clock of each token.
    func testTopicsListsAndSnapshots() throws {
        let core = makeCore()
        register(core, .android, "android-1")
        register(core, .android, "android-2")
        _ = try core.subscribe(project: "demo", registration: "android-1", topic: "news").get()
        _ = try core.subscribe(project: "demo", registration: "android-2", topic: "news").get()
        at(core, 200 * day)
        _ = try core.connect(project: "demo", token: "android-2").get()
        let snapshot = core.exportStateBytes()
        at(core, 300 * day)
        // Read before anything else touches the project: the expired device is gone from the counts.
        XCTAssertEqual(try core.topics(project: "demo").items.first?.subscriberCount, 1)
        XCTAssertEqual(try core.projects().items.first?.deviceCount, 1)
        guard case .accepted(let sent) = send(core, #"{"message":{"topic":"news","data":{"k":"v"}}}"#) else {
            return XCTFail("not accepted")
        }
        XCTAssertEqual(sent.deliveryNumbers.count, 1)
        XCTAssertEqual(try core.devices(project: "demo").items.map(\.token), ["android-2"])
        XCTAssertEqual(try core.topics(project: "demo").items.first?.subscriberCount, 1)
        // Imported, the same tokens expire at the same moments.
        try core.importState(snapshot)
        at(core, 300 * day)
        XCTAssertNil(sendData(core, to: "android-1").sent)
        XCTAssertNotNil(sendData(core, to: "android-2").sent)
    }
}
