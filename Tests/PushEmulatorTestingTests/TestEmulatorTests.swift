import PushEmulatorTesting
import XCTest

/// The library as a backend's tests use it, through its public API alone: an emulator in the
/// process, a device, a send through the library's own loopback client, and the delivery awaited.
final class TestEmulatorTests: XCTestCase {
    /// README's quick start, as it stands there.
    func testWelcome() async throws {
        let emulator = try TestEmulator.start()
        defer { emulator.stop() }
        let device = try await emulator.registerDevice(.ios(bundleID: "com.example.app"))
        try await emulator.send(#"{"token":"\#(device.token)","notification":{"title":"Welcome"}}"#)  // or your backend, at emulator.baseURL
        let delivery = try await emulator.nextDelivery(to: device)
        XCTAssertTrue(delivery.applePayloadJSON?.contains("Welcome") == true)
    }

    func testAnIOSDeviceReceivesAnFCMSend() async throws {
        let emulator = try TestEmulator.start()
        defer { emulator.stop() }
        XCTAssertEqual(emulator.baseURL, "http://127.0.0.1:\(emulator.port)")
        XCTAssertTrue(emulator.caCertificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let device = try await emulator.registerDevice(.ios(bundleID: "com.example.app"))
        XCTAssertNotNil(device.apnsToken)
        let name = try await emulator.send(
            #"{"token":"\#(device.token)","notification":{"title":"Welcome","body":"Hello"},"data":{"order":"42"}}"#)
        let delivery = try await emulator.nextDelivery(to: device)
        XCTAssertEqual(delivery.messageName, name)
        XCTAssertEqual(delivery.state, "pending")
        let payload = try XCTUnwrap(delivery.applePayloadJSON)
        XCTAssertTrue(payload.contains(#""title":"Welcome""#), payload)
        XCTAssertTrue(payload.contains(#""order":"42""#), payload)
    }

    func testNextDeliveryWaitsForTheNextOne() async throws {
        let emulator = try TestEmulator.start(project: "waits")
        defer { emulator.stop() }
        let device = try await emulator.registerDevice(.android(packageName: "com.example.app"))
        try await emulator.send(#"{"token":"\#(device.token)","data":{"n":"1"}}"#)
        let first = try await emulator.nextDelivery(to: device)
        // The second is sent while the library waits for it.
        async let second = emulator.nextDelivery(to: device, timeoutSeconds: 30)
        try await Task.sleep(nanoseconds: 200_000_000)
        try await emulator.send(#"{"token":"\#(device.token)","data":{"n":"2"}}"#)
        let next = try await second
        XCTAssertNotEqual(next.id, first.id)
        XCTAssertTrue(next.json.contains(#""n":"2""#), next.json)
        XCTAssertNil(next.applePayloadJSON)
        // Nothing more: an error once the wait ends.
        do {
            _ = try await emulator.nextDelivery(to: device, timeoutSeconds: 1)
            XCTFail("a delivery that was never sent")
        } catch let error as TestEmulatorError {
            XCTAssertTrue(error.description.contains("no delivery"), error.description)
        }
    }

    func testTheAPIAnswersItsErrorsAndOtherRequests() async throws {
        let emulator = try TestEmulator.start()
        defer { emulator.stop() }
        do {
            try await emulator.send(#"{"token":""}"#)
            XCTFail("an empty token was accepted")
        } catch let error as TestEmulatorError {
            XCTAssertTrue(error.description.contains("400"), error.description)
        }
        let clock = try await emulator.request("POST", "/emulator/v1/clock:advance", json: #"{"seconds":60}"#)
        XCTAssertEqual(clock.status, 200, clock.body)
        let health = try await emulator.request("GET", "/healthz")
        XCTAssertEqual(health.body, #"{"status":"ok"}"#)
    }
}
