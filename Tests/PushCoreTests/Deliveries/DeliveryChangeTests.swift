import ByteCoding
import Dispatch
import Locking
@testable import PushCore
import XCTest

/// The core tells its listener of each delivery that leaves `pending` without reaching its device
/// (collapsed, expired, deleted, dropped), once the call's locks are released, and only while
/// somebody listens (docs/events.md).
final class DeliveryChangeTests: XCTestCase {
    private final class Heard: Sendable {
        let changes = Locked<[(String, DeliveryChange)]>([])
        var all: [(String, DeliveryChange)] { changes.withLock { $0 } }
        var summary: [String] { all.map { "\($0.0) d-\($0.1.number) \($0.1.state.rawValue) \($0.1.reason ?? "-")" } }
    }

    private func listening(_ configuration: PushCoreConfiguration = PushCoreConfiguration()) -> (PushEmulatorCore, Heard) {
        let core = makeCore(configuration)
        let heard = Heard()
        core.deliveryChanges.listen { project, changes in
            heard.changes.withLock { $0 += changes.map { (project, $0) } }
        }
        core.deliveryChanges.addAudience(1)
        _ = try! core.registerDevice(project: "demo", DeviceRegistration(platform: .android, token: "android-1")).get()
        return (core, heard)
    }

    @discardableResult
    private func send(_ core: PushEmulatorCore, _ android: String = "", token: String = "android-1") -> Int {
        let json = #"{"message":{"token":"\#(token)","data":{"k":"v"},"android":{\#(android)}}}"#
        let body = Array(json.utf8)
        guard case .accepted(let sent) = core.send(project: "demo", message: try! FCMSendRequest(body: body).message, requestBody: body) else {
            XCTFail("not accepted")
            return 0
        }
        return sent.deliveryNumbers.first ?? 0
    }

    func testEachWayOutOfTheQueueIsTold() throws {
        var configuration = PushCoreConfiguration()
        configuration.offlineLimitSeconds = 3600
        let (core, heard) = listening(configuration)
        let first = send(core, #""collapse_key":"score""#)
        let second = send(core, #""collapse_key":"score""#)
        XCTAssertEqual(heard.summary, ["demo d-\(first) collapsed replaced by d-\(second)"])
        let short = send(core, #""ttl":"60s""#)
        core.advanceClock(seconds: 61)
        _ = try core.messages(project: "demo")
        XCTAssertEqual(heard.summary.last, "demo d-\(short) expired ttl passed while the device was offline")
        // Past the offline limit, a connect deletes what is queued.
        core.advanceClock(seconds: 7200)
        _ = try core.connect(project: "demo", token: "android-1").get()
        XCTAssertEqual(heard.summary.last, "demo d-\(second) deleted offlineTooLong")
        // A delivered one is not told here (the routes tell it, once sent).
        let delivered = send(core)
        _ = try core.connect(project: "demo", token: "android-1").get()
        XCTAssertFalse(heard.all.contains { $0.1.number == delivered })
        let dropped = send(core)
        _ = try core.uninstallDevice(project: "demo", token: "android-1").get()
        XCTAssertEqual(heard.all.last?.1.number, dropped)
        XCTAssertEqual(heard.all.last?.1.state, .dropped)
        XCTAssertEqual(heard.all.last?.1.token, "android-1")
    }

    func testMoreThanTheMaximumPendingAreDeletedAndTold() throws {
        var configuration = PushCoreConfiguration()
        configuration.maxPending = 2
        let (core, heard) = listening(configuration)
        let numbers = (0..<3).map { _ in send(core) }
        _ = try core.connect(project: "demo", token: "android-1").get()
        XCTAssertEqual(heard.summary, numbers.map { "demo d-\($0) deleted tooManyPending" })
    }

    /// The listener is kept as it was given: kept in the lock's value as a bare closure, it was
    /// wrapped in one more conversion thunk each time it was told, and an Android send (whose
    /// notification replaces the stored one) went through thousands of thunks by its 10,000th.
    func testTellingManyTimesCostsTheSameEachTime() {
        let listener = DeliveryChangeListener()
        let heard = Locked(0)
        listener.listen { _, changes in heard.withLock { $0 += changes.count } }
        let change = DeliveryChange(number: 1, token: "t", state: .collapsed, transition: nil)
        // Deep enough that a pile of thunks would overflow the stack.
        for _ in 0..<300_000 { listener.tell(project: "p", [change]) }
        XCTAssertEqual(heard.withLock { $0 }, 300_000)
    }

    /// A state export expires what is due while it holds every stripe; it told those expiries
    /// there, so a listener that reached the core (a webhook's queue, a stream) waited on the
    /// export's locks. Here the listener registers a device in another project from another
    /// thread, which takes a stripe, and waits up to 30 s for it.
    func testAnExportTellsItsExpiriesWithNoLockHeld() throws {
        let core = makeCore()
        _ = try core.registerDevice(project: "demo", DeviceRegistration(platform: .android, token: "android-1")).get()
        let reachedTheCore = Locked<[Bool]>([])
        core.deliveryChanges.listen { _, changes in
            guard changes.contains(where: { $0.state == .expired }) else { return }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = core.registerDevice(project: "elsewhere", DeviceRegistration(platform: .android, token: "android-2"))
                done.signal()
            }
            let reached = done.wait(timeout: .now() + 30) == .success
            reachedTheCore.withLock { $0.append(reached) }
        }
        core.deliveryChanges.addAudience(1)
        let json = #"{"message":{"token":"android-1","data":{"k":"v"},"android":{"ttl":"60s"}}}"#
        let body = Array(json.utf8)
        guard case .accepted = core.send(project: "demo", message: try FCMSendRequest(body: body).message, requestBody: body) else {
            return XCTFail("not accepted")
        }
        core.advanceClock(seconds: 61)
        _ = core.exportState()
        XCTAssertEqual(reachedTheCore.withLock { $0 }, [true])
    }

    func testNothingIsNotedWithoutAnAudience() throws {
        let (core, heard) = listening()
        core.deliveryChanges.addAudience(-1)
        send(core, #""collapse_key":"a""#)
        send(core, #""collapse_key":"a""#)
        XCTAssertTrue(heard.all.isEmpty)
        core.deliveryChanges.addAudience(1)
        send(core, #""collapse_key":"a""#)
        XCTAssertEqual(heard.all.count, 1)
    }
}
