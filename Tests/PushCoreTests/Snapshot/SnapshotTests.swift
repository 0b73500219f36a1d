import ByteCoding
import PushCore
import XCTest

final class SnapshotTests: XCTestCase {
    private let apnsToken = String(repeating: "ab", count: 32)

    /// A core with something of everything: devices (one with an APNs token, one connected and
    /// back), subscriptions, pending, delivered and collapsed deliveries, an uninstalled device, an
    /// APNs push with the sender's spacing, a seeded fault that has drawn, and a moved clock.
    private func busyCore() throws -> PushEmulatorCore {
        let core = makeCore()
        register(core, token: "device-1")
        register(core, token: "device-2", apnsToken: apnsToken, appState: .foreground)
        register(core, token: "device-3")
        _ = core.updateDevice(project: "demo", token: "device-2", hasNotificationServiceExtension: false)
        _ = core.subscribe(project: "demo", registration: "device-1", topic: "news")
        _ = core.subscribe(project: "demo", registration: "device-2", topic: "news")
        sendFCM(core, to: .token("device-1"), headers: [HeaderField("apns-collapse-id", "c")])
        sendFCM(core, to: .topic("news"), data: [("n", "1")])
        sendFCM(core, to: .token("device-1"), headers: [HeaderField("apns-collapse-id", "c")])
        sendAPNs(core, apnsToken: apnsToken, body: "hello")
        _ = core.connect(project: "demo", token: "device-2")
        sendFCM(core, to: .token("device-3"))
        _ = core.uninstallDevice(project: "demo", token: "device-3")
        register(core, token: "other-1", project: "second")
        sendFCM(core, to: .token("other-1"), project: "second")
        let fault = try FaultSpec(
            match: .token("device-1"), errorName: "UNAVAILABLE", times: 50, retryAfterSeconds: nil, delayMilliseconds: nil,
            probability: 0.5, seed: 7)
        try core.addFault(project: "demo", fault)
        for _ in 0..<5 { _ = core.fireFault(project: "demo", on: .fcm(.token("device-1"))) }
        // Transport and token-endpoint faults (snapshot version 2).
        try core.addFault(project: "demo", try FaultSpec(
            match: .apnsToken(apnsToken), errorName: "Shutdown", times: 3, retryAfterSeconds: nil, delayMilliseconds: 5,
            probability: nil, seed: nil, connectionName: "goaway"))
        try core.addFault(project: "second", try FaultSpec(
            match: .serviceAccount("sa@second.iam.gserviceaccount.com"), errorName: nil, times: 2, retryAfterSeconds: nil,
            delayMilliseconds: nil, probability: nil, seed: nil, connectionName: "reset"))
        _ = core.fireFault(onTokenRequestOf: "sa@second.iam.gserviceaccount.com")
        core.advanceClock(seconds: 3600)
        return core
    }

    private func text(_ value: JSONValue) -> String { JSONSerializer.serializeToString(value) }

    func testExportImportExportGivesTheSameSnapshot() throws {
        let snapshot = try busyCore().exportState()
        XCTAssertEqual(snapshot["kind"], .string("push-emulator-state"))
        XCTAssertEqual(snapshot["version"], .number("3"))
        let restored = makeCore()
        try restored.importState(snapshot)
        XCTAssertEqual(text(restored.exportState()), text(snapshot))
        // Through bytes too, as the CLI and PUT read it.
        let again = makeCore()
        try again.importState(JSONSerializer.serialize(snapshot))
        XCTAssertEqual(text(again.exportState()), text(snapshot))
    }

    /// Snapshots written before devices had `notificationServiceExtension` import with it on.
    func testADeviceWithoutTheExtensionSettingImportsWithItOn() throws {
        let snapshot = try busyCore().exportState()
        XCTAssertTrue(text(snapshot).contains(#""notificationServiceExtension":false"#))
        // Every device's member taken out, as an older version wrote them.
        func removing(_ key: String, from value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object):
                return .object(JSONObject(object.members.filter { $0.key != key }.map {
                    JSONObject.Member(key: $0.key, value: removing(key, from: $0.value))
                }))
            case .array(let elements): return .array(elements.map { removing(key, from: $0) })
            default: return value
            }
        }
        let restored = makeCore()
        let older = removing("notificationServiceExtension", from: snapshot)
        XCTAssertFalse(text(older).contains("notificationServiceExtension"))
        try restored.importState(older)
        XCTAssertEqual(try restored.device(project: "demo", token: "device-2").get().hasNotificationServiceExtension, true)
        XCTAssertEqual(try restored.device(project: "demo", token: "device-1").get().hasNotificationServiceExtension, true)
    }

    func testImportedStateReadsAsTheOriginal() throws {
        let original = try busyCore()
        let restored = makeCore()
        try restored.importState(original.exportState())
        XCTAssertEqual(try restored.devices(project: "demo").items, try original.devices(project: "demo").items)
        XCTAssertEqual(try restored.messages(project: "demo").items, try original.messages(project: "demo").items)
        XCTAssertEqual(
            try restored.messages(project: "demo", filter: MessageLogFilter(topic: "news")).items.map(\.name),
            try original.messages(project: "demo", filter: MessageLogFilter(topic: "news")).items.map(\.name))
        XCTAssertEqual(
            try restored.messages(project: "demo", filter: MessageLogFilter(token: "device-3")).items.count, 1)
        XCTAssertEqual(try restored.topics(project: "demo").items, try original.topics(project: "demo").items)
        XCTAssertEqual(restored.clock.offsetSeconds, 3600)
        XCTAssertEqual(
            try restored.faults(project: "demo").items.map { text($0.json) },
            try original.faults(project: "demo").items.map { text($0.json) })
    }

    func testSendsAfterImportGetTheNextIdentifiers() throws {
        let original = try busyCore()
        let snapshot = original.exportState()
        let expected = sendFCM(original, to: .token("device-1"))
        let restored = makeCore()
        try restored.importState(snapshot)
        let sent = sendFCM(restored, to: .token("device-1"))
        guard case .accepted(let want) = expected, case .accepted(let got) = sent else {
            return XCTFail("both sends are accepted: \(expected) \(sent)")
        }
        XCTAssertEqual(got, want)
        let nextID = try XCTUnwrap(snapshot["counters"]?["nextMessageId"]?.stringValue)
        XCTAssertEqual(got.messageID, nextID)
        // A core whose ids are further on keeps them: ids never go back.
        let ahead = makeCore()
        for _ in 0..<3 { sendFCM(ahead, to: .token("device-9")) }
        guard case .accepted(let last) = sendFCM(ahead, to: .token("device-9")) else { return XCTFail() }
        try ahead.importState(snapshot)
        guard case .accepted(let after) = sendFCM(ahead, to: .token("device-1")) else { return XCTFail() }
        XCTAssertGreaterThan(UInt64(after.messageID)!, UInt64(last.messageID)!)
        XCTAssertGreaterThan(after.deliveryNumbers.lowerBound, last.deliveryNumbers.lowerBound)
    }

    func testPendingDeliveriesStillDeliverOnConnect() throws {
        let original = try busyCore()
        let restored = makeCore()
        try restored.importState(original.exportState())
        let want = try original.connect(project: "demo", token: "device-1").get()
        let got = try restored.connect(project: "demo", token: "device-1").get()
        XCTAssertFalse(got.isEmpty)
        XCTAssertEqual(got, want)
    }

    func testAnUninstalledTokenStaysUnregistered() throws {
        let restored = makeCore()
        try restored.importState(try busyCore().exportState())
        guard case .unreachable(.unregistered) = sendFCM(restored, to: .token("device-3")) else {
            return XCTFail("a send to an uninstalled token answers UNREGISTERED")
        }
    }

    func testAnUninstalledAPNsTokenStaysUnregistered() throws {
        let core = try busyCore()
        let gone = String(repeating: "cd", count: 32)
        register(core, token: "device-4", apnsToken: gone)
        _ = core.uninstallDevice(project: "demo", token: "device-4")
        guard case .unreachable(.unregistered(let since)) = sendAPNs(core, apnsToken: gone, body: "x") else { return XCTFail() }
        let restored = makeCore()
        try restored.importState(core.exportState())
        guard case .unreachable(.unregistered(let restoredSince)) = sendAPNs(restored, apnsToken: gone, body: "x") else {
            return XCTFail("an APNs send to an uninstalled device token answers Unregistered")
        }
        XCTAssertEqual(restoredSince, since)
        // A registered APNs token is found again by its token.
        guard case .accepted = sendAPNs(restored, apnsToken: apnsToken, body: "y") else { return XCTFail() }
        XCTAssertEqual(try restored.device(project: "demo", token: "device-2").get().pendingCount, 1)
    }

    func testASeededFaultGoesOnWithTheSameDraws() throws {
        let original = try busyCore()
        let restored = makeCore()
        try restored.importState(original.exportState())
        for _ in 0..<20 {
            XCTAssertEqual(
                restored.fireFault(project: "demo", on: .fcm(.token("device-1"))),
                original.fireFault(project: "demo", on: .fcm(.token("device-1"))))
        }
    }

    func testAnOpenStreamIsNotPartOfTheSnapshot() throws {
        let core = makeCore()
        register(core, token: "device-1")
        let stream = try core.attachStream(project: "demo", token: "device-1") { _, receipt in _ = receipt }.get()
        defer { stream.close() }
        let restored = makeCore()
        try restored.importState(core.exportState())
        let device = try restored.device(project: "demo", token: "device-1").get()
        XCTAssertFalse(device.isConnected)
        XCTAssertEqual(device.lastConnectedAt, core.now)
    }

    func testADeepRequestInTheLogReadsBack() throws {
        let core = makeCore()
        register(core)
        // As deep as a request may be: the snapshot nests it a few levels further down.
        var request = JSONValue.object(JSONObject())
        for _ in 0..<(JSONParser.defaultMaxDepth - 2) { request = obj(("a", request)) }
        _ = core.send(project: "demo", target: .token("device-1"), origin: .fcm, request: request) { _ in
            Result<DeliveryContent?, Never>.success(APNsNotification(headers: [], payload: JSONObject()))
        }
        let bytes = core.exportStateBytes()
        let restored = makeCore()
        try restored.importState(bytes)
        XCTAssertEqual(restored.exportStateBytes(), bytes)
    }

    func testTimestampsReadBackAsWritten() {
        for milliseconds: Int64 in [0, 1, 250, fixedWallTime, fixedWallTime + 7, -1, -86_400_001, Timestamp.earliest.millisecondsSinceEpoch, Timestamp.latest.millisecondsSinceEpoch] {
            let timestamp = Timestamp(millisecondsSinceEpoch: milliseconds)
            XCTAssertEqual(Timestamp(rfc3339: timestamp.rfc3339), timestamp, timestamp.rfc3339)
        }
        XCTAssertEqual(Timestamp(rfc3339: "2026-11-22T10:00:00.5Z")?.millisecondsSinceEpoch, fixedWallTime + 500)
        for bad in ["2026-02-30T00:00:00Z", "2026-11-22T10:00:00", "2026-11-22T24:00:00Z", "2026-11-22 10:00:00Z",
                    "2026-11-22T10:00:00.Z", "2026-11-22T10:00:00.1234Z", "2026-11-22T10:00:00+01:00", ""] {
            XCTAssertNil(Timestamp(rfc3339: bad), bad)
        }
    }

    // MARK: Refused snapshots

    /// `change` applied to a good snapshot must be refused with an error that names `path`, and
    /// leave the core as it was.
    private func assertRefused(
        _ path: String, file: StaticString = #filePath, line: UInt = #line, _ change: (inout JSONValue) -> Void
    ) throws {
        var snapshot = try busyCore().exportState()
        change(&snapshot)
        try assertRefused(JSONSerializer.serialize(snapshot), path: path, file: file, line: line)
    }

    private func assertRefused(_ bytes: [UInt8], path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let core = try busyCore()
        let before = text(core.exportState())
        XCTAssertThrowsError(try core.importState(bytes), file: file, line: line) { error in
            XCTAssertEqual((error as? SnapshotError)?.path, path, "\(error)", file: file, line: line)
        }
        XCTAssertEqual(text(core.exportState()), before, "the core is unchanged", file: file, line: line)
    }

    func testTransportAndTokenFaultsRoundTrip() throws {
        let snapshot = try busyCore().exportState()
        let demoFaults = snapshot["projects"]?.arrayValue?.first?["faults"]?.arrayValue
        XCTAssertEqual(demoFaults?.last?["connection"], .string("goaway"))
        XCTAssertEqual(demoFaults?.last?["match"]?["apnsToken"], .string(apnsToken))
        let second = snapshot["projects"]?.arrayValue?.last?["faults"]?.arrayValue?.first
        XCTAssertEqual(second?["connection"], .string("reset"))
        XCTAssertEqual(second?["match"]?["serviceAccount"], .string("sa@second.iam.gserviceaccount.com"))
        XCTAssertEqual(second?["fired"], .number("1"))
        let restored = makeCore()
        try restored.importState(snapshot)
        XCTAssertEqual(restored.fireFault(onTokenRequestOf: "sa@second.iam.gserviceaccount.com")?.connection, .reset)
        XCTAssertNil(restored.fireFault(onTokenRequestOf: "sa@second.iam.gserviceaccount.com"), "times: 2 used up")
        XCTAssertEqual(
            restored.fireFault(project: "demo", on: .apns(deviceToken: apnsToken, pushType: nil)),
            FiredFault(
                error: .apns(.shutdown), retryAfterSeconds: nil, delayMilliseconds: 5, connection: .goaway,
                faultID: Int(demoFaults?.last?["id"]?.stringValue ?? "") ?? -1))
        // A bad value is refused by the rules of POST .../faults.
        var bad = snapshot
        bad.set(["projects", 1, "faults", 0, "connection"], .string("hangup"))
        XCTAssertThrowsError(try makeCore().importState(bad))
    }

    func testReadsAVersionOneDocument() throws {
        let core = makeCore()
        register(core, token: "device-1")
        var snapshot = core.exportState()
        snapshot.set(["version"], .number("1"))
        let restored = makeCore()
        try restored.importState(snapshot)
        XCTAssertEqual(try restored.devices(project: "demo").items, try core.devices(project: "demo").items)
    }

    func testRefusesAWrongVersionOrKind() throws {
        try assertRefused("version") { $0.set(["version"], .number("4")) }
        try assertRefused("version") { $0.set(["version"], .number("0")) }
        try assertRefused("version") { $0.set(["version"], .string("1")) }
        try assertRefused("kind") { $0.set(["kind"], .string("firestore")) }
    }

    func testRefusesAMissingField() throws {
        try assertRefused("projects[0].devices[0].token") { $0.remove(["projects", 0, "devices", 0, "token"]) }
        try assertRefused("counters") { $0.remove(["counters"]) }
    }

    func testRefusesABadType() throws {
        try assertRefused("projects[0].devices[0].registeredAt") {
            $0.set(["projects", 0, "devices", 0, "registeredAt"], .number("12"))
        }
        try assertRefused("projects[0].deliveries[0].history[0].at") {
            $0.set(["projects", 0, "deliveries", 0, "history", 0, "at"], .string("yesterday"))
        }
        try assertRefused("projects[0].faults[0]") { $0.set(["projects", 0, "faults", 0, "probability"], .number("3")) }
        try assertRefused("projects[0].devices[0].platform") {
            $0.set(["projects", 0, "devices", 0, "platform"], .string("symbian"))
        }
    }

    func testRefusesPartsThatDisagree() throws {
        // A pending delivery that is not there.
        try assertRefused("projects[0].devices[0].pendingDeliveries[0]") {
            $0.set(["projects", 0, "devices", 0, "pendingDeliveries"], .array([.number("999")]))
        }
        try assertRefused("counters.nextDeliveryNumber") { $0.set(["counters", "nextDeliveryNumber"], .number("2")) }
        try assertRefused("projects[0].devices[1].token") {
            $0.set(["projects", 0, "devices", 1, "token"], .string("device-1"))
        }
        try assertRefused("projects[0].next.logSequence") {
            $0.set(["projects", 0, "devices", 0, "messageLogSequences"], .array([.number("1"), .number("99")]))
        }
        try assertRefused("projects[0].deliveries[1].number") {
            guard case .array(let deliveries)? = $0["projects"]?.arrayValue?.first?["deliveries"] else { return XCTFail() }
            $0.set(["projects", 0, "deliveries"], .array([deliveries[1], deliveries[0]] + deliveries.dropFirst(2)))
        }
        try assertRefused("projects[0].next.deviceSequence") { $0.set(["projects", 0, "next", "deviceSequence"], .number("1")) }
    }

    /// A log entry's deliveries are a range of numbers, and an imported one named billions that no
    /// send made (reading the log walked every number in it, for ever, with the project's lock
    /// held; then the store was bisected): such an entry is refused, as soon as the stored
    /// deliveries in its range run out.
    func testRefusesALogEntryThatNamesBillionsOfDeliveries() throws {
        try assertRefused("projects[0].messageLog[0]") {
            $0.set(["projects", 0, "messageLog", 0, "deliveryCount"], .number("9007199254740000"))
        }
    }

    /// Log entries whose ranges of deliveries overlap, or name deliveries that are not stored or
    /// are another message's, were accepted: a delivery then showed under two messages.
    func testRefusesLogEntriesWhoseDeliveriesOverlapOrAreNotTheirs() throws {
        let snapshot = try busyCore().exportState()
        let log = try XCTUnwrap(snapshot["projects"]?.arrayValue?.first?["messageLog"]?.arrayValue)
        try assertRefused("projects[0].messageLog[1].firstDeliveryNumber") {
            $0.set(["projects", 0, "messageLog", 1, "firstDeliveryNumber"], log[0]["firstDeliveryNumber"]!)
        }
        try assertRefused("projects[0].messageLog[0]") {
            $0.set(["projects", 0, "messageLog", 0, "name"], log[1]["name"]!)
        }
        try assertRefused("projects[0].messageLog[0]") {
            $0.set(["projects", 0, "messageLog", 0, "firstDeliveryNumber"], .number("999"))
        }
    }

    /// A pending delivery in no device's queue was accepted, and was then never delivered, expired
    /// or dropped.
    func testRefusesAPendingDeliveryNoDeviceQueues() throws {
        let snapshot = try busyCore().exportState()
        let project = try XCTUnwrap(snapshot["projects"]?.arrayValue?.first)
        let pending = try XCTUnwrap(project["devices"]?.arrayValue?.first?["pendingDeliveries"]?.arrayValue?.first)
        let index = try XCTUnwrap(project["deliveries"]?.arrayValue?.firstIndex { $0["number"] == pending })
        try assertRefused("projects[0].deliveries[\(index)]") {
            $0.set(["projects", 0, "devices", 0, "pendingDeliveries"], .array([]))
        }
    }

    /// `clock:advance` moves the clock forward only and `clock:reset` returns it to wall time: a
    /// negative offset, one far enough back to put the clock before the epoch, was accepted.
    func testRefusesAClockNoClockOperationMakes() throws {
        try assertRefused("clock.offsetSeconds") { $0.set(["clock", "offsetSeconds"], .number("-1")) }
        try assertRefused("clock.offsetSeconds") { $0.set(["clock", "offsetSeconds"], .number("-1795341601")) }
    }

    /// Times in a delivery's history are not required to increase: `clock:reset` moves the clock
    /// back, and a delivery accepted before it and delivered after it has a history that goes
    /// back in time. The emulator's own export of that imports again.
    func testAHistoryThatGoesBackAfterAClockResetImportsAgain() throws {
        let core = makeCore()
        register(core, token: "device-1")
        core.advanceClock(seconds: 3600)
        sendFCM(core, to: .token("device-1"))
        core.resetClock()
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get().count, 1)
        let snapshot = core.exportState()
        let history = snapshot["projects"]?.arrayValue?.first?["deliveries"]?.arrayValue?.first?["history"]?.arrayValue
        XCTAssertEqual(history?.map { $0["state"]?.stringValue }, ["pending", "delivered"])
        let restored = makeCore()
        try restored.importState(snapshot)
        XCTAssertEqual(text(restored.exportState()), text(snapshot))
    }

    /// An uninstalled token is checked as a device's token is: a token no device could have, or
    /// an APNs token not in lowercase hex (pushes look tokens up in lowercase), was accepted and
    /// then never matched a send.
    func testRefusesUninstalledTokensNoDeviceCouldHave() throws {
        try assertRefused("projects[0].uninstalledTokens[0].token") {
            $0.set(["projects", 0, "uninstalledTokens", 0, "token"], .string("device-\u{212A}"))
        }
        for apnsToken in [String(repeating: "CD", count: 32), "abc", "xy"] {
            try assertRefused("projects[0].uninstalledApnsTokens[0].apnsToken") {
                let at = $0["projects"]?.arrayValue?.first?["uninstalledTokens"]?.arrayValue?.first?["uninstalledAt"]
                $0.set(
                    ["projects", 0, "uninstalledApnsTokens"],
                    .array([obj(("apnsToken", str(apnsToken)), ("uninstalledAt", at ?? .null))]))
            }
        }
    }

    func testRefusesNumbersThatCouldOverflow() throws {
        try assertRefused("projects[0].faults[0].matched") {
            $0.set(["projects", 0, "faults", 0, "matched"], .number(String(Int.max)))
        }
        try assertRefused("counters.nextMessageId") { $0.set(["counters", "nextMessageId"], .string(String(UInt64.max))) }
        try assertRefused("projects[0].devices[0].owedMessagesDeleted.count") {
            $0.set(["projects", 0, "devices", 0, "owedMessagesDeleted"], obj(("reason", str("tooManyPending")), ("count", .number("99999999999999999"))))
        }
    }

    func testRefusesATruncatedOrCorruptDocument() throws {
        let bytes = JSONSerializer.serialize(try busyCore().exportState())
        try assertRefused(Array(bytes.prefix(bytes.count / 2)), path: "")
        try assertRefused(Array(bytes.dropLast()), path: "")
        try assertRefused(Array("not json".utf8), path: "")
        try assertRefused(Array("[]".utf8), path: "")
    }
}

/// Edits a JSON document at a path of keys and array indices.
extension JSONValue {
    mutating func set(_ path: [Any], _ value: JSONValue) {
        guard let first = path.first else {
            self = value
            return
        }
        let rest = Array(path.dropFirst())
        switch (self, first) {
        case (.object(var object), let key as String):
            var member = object[key] ?? .null
            member.set(rest, value)
            object[key] = member
            self = .object(object)
        case (.array(var elements), let index as Int):
            elements[index].set(rest, value)
            self = .array(elements)
        default:
            XCTFail("no \(first) in \(self)")
        }
    }

    mutating func remove(_ path: [Any]) {
        let rest = Array(path.dropFirst())
        switch (self, path.first) {
        case (.object(var object), let key as String) where rest.isEmpty:
            object.members.removeAll { $0.key == key }
            self = .object(object)
        case (.object(var object), let key as String):
            var member = object[key] ?? .null
            member.remove(rest)
            object[key] = member
            self = .object(object)
        case (.array(var elements), let index as Int):
            elements[index].remove(rest)
            self = .array(elements)
        default:
            XCTFail("no \(String(describing: path.first)) in \(self)")
        }
    }
}
