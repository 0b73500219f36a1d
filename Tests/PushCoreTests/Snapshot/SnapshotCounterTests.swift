import ByteCoding
import PushCore
import XCTest

/// The counters of a state snapshot (docs/state.md, "Counters"): an import accepts each up to
/// its maximum, an operation that would pass it is refused, and so every export imports again.
final class SnapshotCounterTests: XCTestCase {
    private let apnsToken = String(repeating: "ab", count: 32)
    private static let largestMessageID = "9999999999999999999"
    private static let largestNumber = 1 << 53

    /// Two devices (one with an APNs token, subscribed to `news`), a send and a fault.
    private func smallCore() throws -> PushEmulatorCore {
        let core = makeCore()
        register(core, token: "device-1", apnsToken: apnsToken)
        register(core, token: "device-2")
        _ = core.subscribe(project: "demo", registration: "device-1", topic: "news")
        sendFCM(core, to: .token("device-1"))
        try core.addFault(project: "demo", faultSpec())
        return core
    }

    private func faultSpec() throws -> FaultSpec {
        try FaultSpec(
            match: .token("nobody"), errorName: "UNAVAILABLE", times: nil, retryAfterSeconds: nil, delayMilliseconds: nil,
            probability: nil, seed: nil)
    }

    /// Where each counter is in a snapshot, and the value `offset` below its maximum.
    private static var counters: [(name: String, path: [Any], value: (Int) -> JSONValue)] { [
        ("nextMessageId", ["counters", "nextMessageId"], { .string(String(9_999_999_999_999_999_999 - UInt64($0))) }),
        ("nextDeliveryNumber", ["counters", "nextDeliveryNumber"], { .number(String(largestNumber - $0)) }),
        ("deviceSequence", ["projects", 0, "next", "deviceSequence"], { .number(String(largestNumber - $0)) }),
        ("topicSequence", ["projects", 0, "next", "topicSequence"], { .number(String(largestNumber - $0)) }),
        ("subscriptionSequence", ["projects", 0, "next", "subscriptionSequence"], { .number(String(largestNumber - $0)) }),
        ("logSequence", ["projects", 0, "next", "logSequence"], { .number(String(largestNumber - $0)) }),
        ("faultId", ["projects", 0, "next", "faultId"], { .number(String(largestNumber - $0)) }),
    ] }

    /// One of each operation that moves a counter, outcomes ignored.
    private func oneOfEach(_ core: PushEmulatorCore) {
        sendFCM(core, to: .token("device-1"))
        sendFCM(core, to: .topic("news"))
        sendAPNs(core, apnsToken: apnsToken, body: "hi")
        sendFCM(core, to: .token("device-new"))
        _ = core.registerDevice(project: "demo", DeviceRegistration(token: "device-3"))
        _ = core.subscribe(project: "demo", registration: "device-1", topic: "sports")
        _ = core.batchSubscription(tokens: ["device-2"], topic: "news", subscribe: true)
        _ = core.subscribe(project: "demo", registration: "device-new-too", topic: "news")
        _ = try? core.addFault(project: "demo", faultSpec())
    }

    /// Every snapshot an import accepts, with each counter at its maximum or just below it, gives
    /// an export that imports again after one of each operation. An import accepted a message id
    /// at its maximum, and the next send exported a 20-digit counter that no import accepts; the
    /// same for the counters kept as numbers at 2⁵³.
    func testEveryAcceptedSnapshotsExportImportsAgainAfterOneOfEachOperation() throws {
        let base = try smallCore().exportState()
        try makeCore().importState(base)
        for counter in Self.counters {
            for offset in [0, 1, 2] {
                var snapshot = base
                snapshot.set(counter.path, counter.value(offset))
                let core = makeCore()
                try core.importState(snapshot)
                oneOfEach(core)
                let export = core.exportStateBytes()
                XCTAssertNoThrow(try makeCore().importState(export), "\(counter.name) \(offset) below its maximum")
            }
        }
    }

    /// A counter at its maximum refuses each operation that would pass it, with the counter named
    /// and nothing changed; operations that do not move it go on.
    func testAnOperationThatWouldPassACounterIsRefusedAndChangesNothing() throws {
        let base = try smallCore().exportState()
        typealias Operation = (name: String, uses: Set<Counter>, run: (PushEmulatorCore) -> CounterExhausted?)
        func sent(_ outcome: SendOutcome<Never>) -> CounterExhausted? {
            switch outcome {
            case .accepted: return nil
            case .exhausted(let exhausted): return exhausted
            default: XCTFail("\(outcome)"); return nil
            }
        }
        let send: Set<Counter> = [.messageID, .deliveryNumber, .logSequence]
        let operations: [Operation] = [
            ("FCM send", send, { sent(sendFCM($0, to: .token("device-1"))) }),
            ("APNs send", send, { sent(sendAPNs($0, apnsToken: self.apnsToken, body: "x")) }),
            ("FCM send to a new token", send.union([.deviceSequence]), { sent(sendFCM($0, to: .token("device-new"))) }),
            ("register", [.deviceSequence], { core in
                switch core.registerDevice(project: "demo", DeviceRegistration(token: "device-3")) {
                case .success: return nil
                case .failure(.counterExhausted(let exhausted)): return exhausted
                case .failure(let error): XCTFail("\(error)"); return nil
                }
            }),
            ("subscribe to a new topic", [.subscriptionSequence, .topicSequence], { core in
                switch core.subscribe(project: "demo", registration: "device-1", topic: "sports") {
                case .success: return nil
                case .failure(.counterExhausted(let exhausted)): return exhausted
                case .failure(let error): XCTFail("\(error)"); return nil
                }
            }),
            ("subscribe a new token", [.deviceSequence, .subscriptionSequence], { core in
                switch core.subscribe(project: "demo", registration: "device-new-too", topic: "news") {
                case .success: return nil
                case .failure(.counterExhausted(let exhausted)): return exhausted
                case .failure(let error): XCTFail("\(error)"); return nil
                }
            }),
            ("Instance ID batch subscribe", [.subscriptionSequence], { core in
                switch core.batchSubscription(tokens: ["device-2"], topic: "news", subscribe: true)[0] {
                case nil: return nil
                case .counterExhausted(let exhausted)?: return exhausted
                case let error?: XCTFail("\(error)"); return nil
                }
            }),
            ("add a fault", [.faultID], { core in
                do throws(GoogleError) {
                    _ = try core.addFault(project: "demo", try! self.faultSpec())
                    return nil
                } catch {
                    // The route answers the counter's error in Google's shape.
                    let exhausted = CounterExhausted(counter: .faultID)
                    XCTAssertEqual(error, exhausted.googleError)
                    return error == exhausted.googleError ? exhausted : nil
                }
            }),
        ]
        for counter in Counter.allCases {
            let path = Self.counters.first { $0.name == counter.rawValue }!.path
            var snapshot = base
            snapshot.set(path, Self.counters.first { $0.name == counter.rawValue }!.value(0))
            for operation in operations {
                let core = makeCore()
                try core.importState(snapshot)
                let before = core.exportStateBytes()
                let refused = operation.run(core)
                if operation.uses.contains(counter) {
                    XCTAssertEqual(refused, CounterExhausted(counter: counter), "\(operation.name) at \(counter)")
                    XCTAssertTrue(core.exportStateBytes() == before, "\(operation.name) at \(counter) changed nothing")
                } else {
                    XCTAssertNil(refused, "\(operation.name) at \(counter)")
                }
            }
        }
    }

    func testTheErrorSaysWhichCounterAndWhatToDo() {
        let error = CounterExhausted(counter: .messageID).googleError
        XCTAssertEqual(error.httpStatus, 500)
        XCTAssertEqual(error.status, .internal)
        XCTAssertTrue(error.message.contains("counters.nextMessageId"), error.message)
        XCTAssertTrue(error.message.contains(Self.largestMessageID), error.message)
        XCTAssertTrue(error.message.contains("DELETE /emulator/v1/state"), error.message)
        XCTAssertTrue(CounterExhausted(counter: .faultID).message.contains("next.faultId"))
    }

    /// `DELETE /emulator/v1/state` returns the counters to their start: an imported message id at
    /// its maximum stayed, and every later send was refused until a restart.
    func testResetAllReturnsTheCountersToTheirStart() throws {
        var snapshot = try smallCore().exportState()
        snapshot.set(["counters", "nextMessageId"], .string(Self.largestMessageID))
        snapshot.set(["counters", "nextDeliveryNumber"], .number(String(Self.largestNumber)))
        let core = makeCore()
        try core.importState(snapshot)
        core.resetAll()
        let counters = core.exportState()["counters"]
        XCTAssertEqual(counters?["nextMessageId"], .string(String(UInt64(fixedWallTime) * 1_000_000)))
        XCTAssertEqual(counters?["nextDeliveryNumber"], .number("1"))
        register(core, token: "device-1")
        XCTAssertEqual(sendFCM(core, to: .token("device-1")).sent?.deliveryNumbers, 1..<2)
    }

    /// A fault's counts stop at 2⁵³, the largest a snapshot holds: one more match exported 2⁵³ + 1,
    /// which no import accepts.
    func testAFaultsCountsStopAtTheLargestNumberASnapshotHolds() throws {
        var snapshot = try smallCore().exportState()
        snapshot.set(["projects", 0, "faults", 0, "matched"], .number(String(Self.largestNumber)))
        snapshot.set(["projects", 0, "faults", 0, "fired"], .number(String(Self.largestNumber)))
        let core = makeCore()
        try core.importState(snapshot)
        XCTAssertNotNil(core.fireFault(project: "demo", on: .fcm(.token("nobody"))))
        XCTAssertNoThrow(try makeCore().importState(core.exportStateBytes()))
    }
}
