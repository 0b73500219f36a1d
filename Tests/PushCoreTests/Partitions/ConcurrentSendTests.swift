import ByteCoding
@testable import PushCore
import Synchronization
import XCTest

/// A send to one stored device converts outside every lock, between two short turns under its
/// shard's (`DeviceShard+PreparedSend`): whatever changes in between, the send lands as if it
/// had run at its second turn, and sends from many threads each land exactly once.
final class ConcurrentSendTests: XCTestCase {
    /// Sends to `token` with a conversion that runs `meanwhile` (another caller's change) the
    /// first time only, and records the bundle id of each conversion.
    private func send(
        _ core: PushEmulatorCore, token: String = "device-1", meanwhile: @escaping () -> Void
    ) -> (SendOutcome<Never>, bundleIDs: [String]) {
        var bundleIDs = [String]()
        let outcome = core.send(project: "demo", target: .token(token), origin: .fcm, request: obj(("message", obj()))) {
            context -> Result<DeliveryContent?, Never> in
            bundleIDs.append(context.bundleID)
            if bundleIDs.count == 1 { meanwhile() }
            return .success(APNsNotification(headers: [HeaderField("apns-topic", context.bundleID)], payload: JSONObject()))
        }
        return (outcome, bundleIDs)
    }

    func testABundleIDChangedDuringTheConversionIsConvertedAgain() throws {
        let core = makeCore()
        register(core)
        let (outcome, bundleIDs) = send(core) {
            _ = core.updateDevice(project: "demo", token: "device-1", bundleID: "com.example.renamed")
        }
        guard case .accepted = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(bundleIDs, [PushCoreConfiguration().defaultBundleID, "com.example.renamed"])
        let device = try core.device(project: "demo", token: "device-1").get()
        XCTAssertEqual(device.pendingCount, 1)
        let logged = try core.messages(project: "demo").items
        XCTAssertEqual(logged.count, 1)
        XCTAssertEqual(logged[0].deliveries.map(\.notification.headers), [[HeaderField("apns-topic", "com.example.renamed")]])
    }

    func testADeviceUninstalledDuringTheConversionIsUnregistered() throws {
        let core = makeCore()
        register(core)
        let (outcome, _) = send(core) { _ = core.uninstallDevice(project: "demo", token: "device-1") }
        guard case .unreachable(.unregistered) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(try core.messages(project: "demo").items.count, 0)
    }

    func testAProjectResetDuringTheConversionSendsToTheNewProject() throws {
        let core = makeCore()
        register(core)
        register(core, token: "device-2")
        // Lenient mode: the token, well formed, is registered in the project made anew.
        let token = "cXr9:" + String(repeating: "A", count: 140)
        register(core, token: token)
        let (outcome, _) = send(core, token: token) { core.resetProject("demo") }
        guard case .accepted = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(try core.devices(project: "demo").items.map(\.token), [token])
        XCTAssertEqual(try core.messages(project: "demo").items.count, 1)
    }

    /// An APNs push whose device is uninstalled, and its token registered again with another
    /// APNs token, while the push is converted: the device that had the APNs token is gone, so
    /// the push is refused as Unregistered, not queued on the new registration.
    func testAnAPNsPushToADeviceRegisteredAnewMeanwhileIsUnregistered() throws {
        let core = makeCore()
        let apnsToken = String(repeating: "ab", count: 32)
        register(core, apnsToken: apnsToken)
        var conversions = 0
        let outcome = core.send(project: "demo", target: .apnsToken(apnsToken), origin: .apns, request: obj()) {
            context -> Result<DeliveryContent?, Never> in
            conversions += 1
            if conversions == 1 {
                _ = core.uninstallDevice(project: "demo", token: "device-1")
                register(core, apnsToken: String(repeating: "cd", count: 32))
            }
            return .success(APNsNotification(headers: [], payload: JSONObject()))
        }
        guard case .unreachable(.unregistered) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 0)
    }

    /// A stream's receipt that comes after its project was reset settles nothing in the project
    /// made anew with the same id, whose delivery numbers start again at 1.
    func testALateReceiptDoesNotSettleADeliveryOfTheNextProject() throws {
        let core = makeCore()
        register(core)
        let held = Mutex<[StreamReceipt]>([])
        let first = try core.attachStream(project: "demo", token: "device-1") { _, receipt in
            held.withLock { $0.append(receipt) }
        }.get()
        sendFCM(core)
        core.resetAll()
        register(core)
        // Recorded, not settled: the delivery stays handed to this stream.
        let received = Mutex(0)
        let second = try core.attachStream(project: "demo", token: "device-1") { _, _ in
            received.withLock { $0 += 1 }
        }.get()
        sendFCM(core)
        XCTAssertEqual(received.withLock { $0 }, 1)
        // The old stream gives its delivery (number 1, as the new one's) back as unsent.
        for receipt in held.withLock({ $0 }) { receipt.finish(sent: false) }
        XCTAssertEqual(received.withLock { $0 }, 1, "the new stream was handed the delivery again")
        let logged = try core.messages(project: "demo").items
        XCTAssertEqual(logged.flatMap(\.deliveries).map(\.state), [.pending])
        first.close()
        second.close()
    }

    /// Eight threads send to 64 devices of one project: every send is accepted and stored once,
    /// with its own delivery number, each device's in increasing order.
    func testSendsFromManyThreadsEachLandOnce() throws {
        let core = makeCore()
        let tokens = (0..<64).map { "device-\($0)" }
        for token in tokens { register(core, token: token) }
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for n in 0..<perThread {
                guard case .accepted = sendFCM(core, to: .token(tokens[(thread * 7 + n) % tokens.count])) else {
                    return XCTFail("send \(n) of thread \(thread) refused")
                }
            }
        }
        var numbers = [Int]()
        for token in tokens {
            let device = try core.device(project: "demo", token: token).get()
            let pending = Array(device.pendingDeliveryNumbers)
            XCTAssertEqual(pending, pending.sorted(), token)
            numbers += pending
        }
        XCTAssertEqual(numbers.count, 8 * perThread)
        XCTAssertEqual(Set(numbers).count, numbers.count)
        XCTAssertEqual(core.summary().pendingDeliveries, 8 * perThread)
    }
}
