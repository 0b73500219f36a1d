import ByteCoding
import Dispatch
@testable import PushCore
import Synchronization
import XCTest

/// A project's devices are split in shards, each behind its own lock (`DeviceShard`,
/// `ProjectSlot`): a send to one device takes its shard's lock and, for the moment of logging,
/// the project part's; what needs the whole project takes every lock in order.
final class DeviceShardTests: XCTestCase {
    /// Tokens `device-N`, the first `count` of them in distinct shards.
    private func tokensInDistinctShards(_ count: Int) -> [String] {
        var byShard = [Int: String]()
        var n = 0
        while byShard.count < count {
            let token = "device-\(n)"
            if byShard[DeviceShard.index(of: token)] == nil { byShard[DeviceShard.index(of: token)] = token }
            n += 1
        }
        return byShard.keys.sorted().map { byShard[$0]! }
    }

    /// An APNs token whose shard is not the shard of registration token `token`.
    private func apnsTokenInAnotherShard(than token: String) -> String {
        var n = 0
        while true {
            let apnsToken = String(repeating: "0", count: 56) + String(format: "%08x", n)
            if DeviceShard.index(of: apnsToken) != DeviceShard.index(of: token) { return apnsToken }
            n += 1
        }
    }

    /// While one shard's lock is held, a send to a device of another shard of the same project is
    /// accepted; a send to a device of the held shard waits for it. With one lock per project,
    /// the first send would wait too.
    func testASendToAnotherShardGoesOnWhileAShardIsHeld() throws {
        let core = makeCore()
        let tokens = tokensInDistinctShards(2)
        for token in tokens { register(core, token: token) }
        let slot = try XCTUnwrap(core.directory.slot("demo"))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            slot.withShard(DeviceShard.index(of: tokens[0])) { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let otherShardDone = DispatchSemaphore(value: 0)
        let heldShardDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            guard case .accepted = sendFCM(core, to: .token(tokens[1])) else { return XCTFail("refused") }
            otherShardDone.signal()
        }
        DispatchQueue.global().async {
            guard case .accepted = sendFCM(core, to: .token(tokens[0])) else { return XCTFail("refused") }
            heldShardDone.signal()
        }
        // Generous: a busy machine may be slow, but the send never needs the held lock.
        XCTAssertEqual(otherShardDone.wait(timeout: .now() + 30), .success, "the send to another shard waited")
        XCTAssertEqual(heldShardDone.wait(timeout: .now() + 0.2), .timedOut, "a send went through a held shard")
        release.signal()
        XCTAssertEqual(heldShardDone.wait(timeout: .now() + 30), .success)
        let logged = try core.messages(project: "demo").items
        XCTAssertEqual(Set(logged.flatMap(\.deliveries).map(\.token)), Set(tokens))
    }

    /// A topic send reaches subscribers in every shard, numbered in registration order, and the
    /// log shows its deliveries in number order; an export of the sharded project imports again
    /// as the same state.
    func testATopicSendReachesEveryShardAndTheStateRoundTrips() throws {
        let core = makeCore()
        let tokens = (0..<100).map { "device-\($0)" }
        for (n, token) in tokens.enumerated() {
            register(core, token: token, apnsToken: String(repeating: "0", count: 60) + String(format: "%04x", n))
        }
        XCTAssertEqual(Set(tokens.map(DeviceShard.index(of:))).count, DeviceShard.count)
        for token in tokens { _ = try core.subscribe(project: "demo", registration: token, topic: "news").get() }
        guard case .accepted(let sent) = sendFCM(core, to: .topic("news")) else { return XCTFail() }
        XCTAssertEqual(sent.deliveryNumbers.count, tokens.count)
        let logged = try core.messages(project: "demo").items
        XCTAssertEqual(logged.count, 1)
        XCTAssertEqual(logged[0].deliveries.map(\.number), Array(sent.deliveryNumbers))
        XCTAssertEqual(logged[0].deliveries.map(\.token), tokens)
        for token in tokens.prefix(20) { _ = sendFCM(core, to: .token(token)) }
        _ = core.uninstallDevice(project: "demo", token: tokens[3])
        let exported = core.exportStateBytes()
        let again = makeCore()
        try again.importState(exported)
        XCTAssertEqual(again.exportStateBytes(), exported)
        XCTAssertEqual(again.summary().devices, tokens.count - 1)
    }

    /// A device whose APNs token falls in another shard than its registration token is found by
    /// the APNs token, Unregistered once uninstalled, and found again when another device
    /// registers the APNs token.
    func testTheAPNsTokenIndexAcrossShards() throws {
        let core = makeCore()
        let apnsToken = apnsTokenInAnotherShard(than: "device-1")
        register(core, token: "device-1", apnsToken: apnsToken)
        let found = try core.apnsRecipient(deviceToken: apnsToken, bundleID: nil, defaultProject: "demo").get()
        XCTAssertEqual(found.device?.token, "device-1")
        _ = core.uninstallDevice(project: "demo", token: "device-1")
        guard case .failure(.unregistered) = core.apnsRecipient(deviceToken: apnsToken, bundleID: nil, defaultProject: "demo")
        else { return XCTFail() }
        register(core, token: "device-2", apnsToken: apnsToken)
        XCTAssertEqual(
            try core.apnsRecipient(deviceToken: apnsToken, bundleID: nil, defaultProject: "demo").get().device?.token,
            "device-2")
        guard case .accepted = sendFCM(core, to: .apnsToken(apnsToken)) else { return XCTFail() }
        XCTAssertEqual(try core.device(project: "demo", token: "device-2").get().pendingCount, 1)
    }

    /// An APNs push names its token in upper case: it still converts outside every lock (the
    /// conversion here reads the device, which would take a lock the send held).
    func testAnUpperCaseAPNsTokenConvertsOutsideTheLocks() throws {
        let core = makeCore()
        let apnsToken = String(repeating: "ab", count: 32)
        register(core, apnsToken: apnsToken)
        let given = apnsToken.uppercased()
        let recipient = try core.apnsRecipient(deviceToken: given, bundleID: nil, defaultProject: "demo").get()
        let outcome = core.send(
            project: "demo", target: .apnsToken(given), origin: .apns, requestBody: [], knownDevice: recipient.device
        ) { context -> Result<DeliveryContent?, Never> in
            XCTAssertEqual(try? core.device(project: "demo", token: "device-1").get().pendingCount, 0)
            return .success(APNsNotification(headers: [], payload: JSONObject()))
        }
        guard case .accepted = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(try core.device(project: "demo", token: "device-1").get().pendingCount, 1)
    }

    /// A device's new bundle id reaches its APNs token's entry (in another shard), which an APNs
    /// push checks its topic against; a change of bundle id and app state lands whole.
    func testABundleIDChangeReachesTheAPNsTokenEntry() throws {
        let core = makeCore()
        let apnsToken = apnsTokenInAnotherShard(than: "device-1")
        register(core, apnsToken: apnsToken)
        let updated = try core.updateDevice(
            project: "demo", token: "device-1", appState: .foreground, bundleID: "com.example.renamed"
        ).get()
        XCTAssertEqual(updated.bundleID, "com.example.renamed")
        XCTAssertEqual(updated.appState, .foreground)
        guard case .failure(.notForTopic) = core.apnsRecipient(
            deviceToken: apnsToken, bundleID: PushCoreConfiguration().defaultBundleID, defaultProject: "demo")
        else { return XCTFail("the old bundle id still matched") }
        XCTAssertEqual(
            try core.apnsRecipient(deviceToken: apnsToken, bundleID: "com.example.renamed", defaultProject: "demo").get()
                .device?.token, "device-1")
        let exported = core.exportStateBytes()
        let again = makeCore()
        try again.importState(exported)
        XCTAssertEqual(
            try again.apnsRecipient(deviceToken: apnsToken, bundleID: "com.example.renamed", defaultProject: "demo").get()
                .device?.token, "device-1")
    }

    /// Token sends from eight threads, topic sends, uninstalls and registrations of one project
    /// at once: every accepted send is stored once, each device's queue is in number order, and
    /// the totals `/metrics` reads match the devices'.
    func testTokenAndTopicSendsAndUninstallsFromManyThreads() throws {
        let core = makeCore()
        let tokens = (0..<64).map { "device-\($0)" }
        for token in tokens {
            register(core, token: token)
            _ = try core.subscribe(project: "demo", registration: token, topic: "all").get()
        }
        let accepted = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for n in 0..<300 {
                if thread == 0, n % 30 == 0 {
                    guard case .accepted(let sent) = sendFCM(core, to: .topic("all")) else { return XCTFail() }
                    accepted.withLock { $0 += sent.deliveryNumbers.count }
                } else if thread == 1, n % 50 == 0 {
                    let token = "late-\(n)"
                    register(core, token: token)
                    _ = core.uninstallDevice(project: "demo", token: token)
                } else if case .accepted = sendFCM(core, to: .token(tokens[(thread * 13 + n) % tokens.count])) {
                    accepted.withLock { $0 += 1 }
                } else {
                    XCTFail("a send to a stored device was refused")
                }
            }
        }
        var numbers = [Int]()
        for token in tokens {
            let pending = Array(try core.device(project: "demo", token: token).get().pendingDeliveryNumbers)
            XCTAssertEqual(pending, pending.sorted(), token)
            numbers += pending
        }
        XCTAssertEqual(numbers.count, accepted.withLock { $0 })
        XCTAssertEqual(Set(numbers).count, numbers.count)
        XCTAssertEqual(core.summary().pendingDeliveries, numbers.count)
        XCTAssertEqual(core.summary().devices, tokens.count)
    }
}
