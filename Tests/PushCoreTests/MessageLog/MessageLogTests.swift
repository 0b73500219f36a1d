import ByteCoding
import PushCore
import XCTest

/// The message log of §8 and the event JSON of §5.
final class MessageLogTests: XCTestCase {
    func testLogIsNewestFirstWithRequestTargetAndDeliveryHistory() throws {
        let core = makeCore()
        register(core)
        let first = sendFCM(core, data: [("n", "1")]).sent!
        core.advanceClock(seconds: 10)
        let second = sendFCM(core, data: [("n", "2")]).sent!
        core.advanceClock(seconds: 10)
        _ = core.connect(project: "demo", token: "device-1")
        let log = try core.messages(project: "demo").items
        XCTAssertEqual(log.map(\.name), [second.name, first.name])
        XCTAssertEqual(log[1].target, .token("device-1"))
        XCTAssertEqual(log[1].request, obj(("message", obj())))
        XCTAssertEqual(log[1].origin, .fcm)
        XCTAssertEqual(
            log[1].deliveries[0].history,
            [
                DeliveryTransition(state: .pending, at: Timestamp(secondsSinceEpoch: fixedNowSeconds)),
                DeliveryTransition(state: .delivered, at: Timestamp(secondsSinceEpoch: fixedNowSeconds + 20)),
            ])
    }

    func testFiltersByTokenAndState() throws {
        let core = makeCore()
        register(core, token: "a")
        register(core, token: "b")
        sendFCM(core, to: .token("a"))
        sendFCM(core, to: .token("b"))
        sendFCM(core, to: .token("b"), headers: [HeaderField("apns-expiration", "0")])
        let forB = try core.messages(project: "demo", filter: MessageLogFilter(token: "b")).items
        XCTAssertEqual(forB.count, 2)
        let dropped = try core.messages(project: "demo", filter: MessageLogFilter(state: .dropped)).items
        XCTAssertEqual(dropped.flatMap(\.deliveries).map(\.token), ["b"])
        let pendingForB = try core.messages(project: "demo", filter: MessageLogFilter(token: "b", state: .pending))
        XCTAssertEqual(pendingForB.items.count, 1)
        XCTAssertEqual(try core.messages(project: "other").items, [])
        XCTAssertThrowsError(try core.messages(project: "other", page: PageRequest(token: "x")))
    }

    func testFilteredPagesHoldOnlyMatchingMessages() throws {
        let core = makeCore()
        register(core, token: "a")
        register(core, token: "b")
        let toB = (0..<5).map { _ -> String in
            sendFCM(core, to: .token("a"))
            return sendFCM(core, to: .token("b")).sent!.name
        }
        let first = try core.messages(project: "demo", filter: MessageLogFilter(token: "b"), page: PageRequest(size: 3))
        XCTAssertEqual(first.items.map(\.name), [toB[4], toB[3], toB[2]])
        let rest = try core.messages(
            project: "demo", filter: MessageLogFilter(token: "b"), page: PageRequest(size: 3, token: first.nextPageToken))
        XCTAssertEqual(rest.items.map(\.name), [toB[1], toB[0]])
        XCTAssertNil(rest.nextPageToken)
    }

    /// The `token` filter finds a message however it reached the device (its token, its APNs
    /// token, a topic or a condition it is subscribed to); the `topic` filter finds topic sends
    /// and conditions that name the topic; both together, the messages that match both.
    func testTokenAndTopicFiltersFindEveryWayAMessageReachedIt() throws {
        let core = makeCore()
        register(core, token: "a", apnsToken: String(repeating: "ab", count: 32))
        register(core, token: "b")
        _ = try core.subscribe(project: "demo", registration: "a", topic: "news").get()
        _ = try core.subscribe(project: "demo", registration: "b", topic: "sports").get()
        let toA = sendFCM(core, to: .token("a")).sent!.name
        sendFCM(core, to: .token("b"))
        let byAPNs = sendAPNs(core, apnsToken: String(repeating: "AB", count: 32), body: "hi").sent!.name
        let news = sendFCM(core, to: .topic("news")).sent!.name
        let sports = sendFCM(core, to: .topic("sports")).sent!.name
        let either = sendFCM(core, to: .condition("'news' in topics || 'sports' in topics")).sent!.name
        let nobody = sendFCM(core, to: .topic("weather")).sent!.name
        func names(_ filter: MessageLogFilter) throws -> [String] {
            try core.messages(project: "demo", filter: filter).items.map(\.name)
        }
        XCTAssertEqual(try names(MessageLogFilter(token: "a")), [either, news, byAPNs, toA])
        XCTAssertEqual(try names(MessageLogFilter(topic: "news")), [either, news])
        XCTAssertEqual(try names(MessageLogFilter(topic: "sports")), [either, sports])
        XCTAssertEqual(try names(MessageLogFilter(topic: "weather")), [nobody])
        XCTAssertEqual(try names(MessageLogFilter(token: "a", topic: "news")), [either, news])
        XCTAssertEqual(try names(MessageLogFilter(token: "b", topic: "news")), [either])
        XCTAssertEqual(try names(MessageLogFilter(token: "a", topic: "sports")), [either])
        XCTAssertEqual(try names(MessageLogFilter(token: "nobody")), [])
        XCTAssertEqual(try names(MessageLogFilter(topic: "nothing")), [])
        let page = try core.messages(project: "demo", filter: MessageLogFilter(token: "a"), page: PageRequest(size: 3))
        let rest = try core.messages(
            project: "demo", filter: MessageLogFilter(token: "a"), page: PageRequest(size: 3, token: page.nextPageToken))
        XCTAssertEqual(rest.items.map(\.name), [toA])
        XCTAssertNil(rest.nextPageToken)
    }

    /// An uninstalled device's messages are still found by its token, and stay found when the
    /// token is registered again; clearing the log forgets them, and later sends are found again.
    func testTokenFilterAcrossUninstallReinstallAndClear() throws {
        let core = makeCore()
        register(core, token: "a")
        let before = sendFCM(core, to: .token("a")).sent!.name
        try core.uninstallDevice(project: "demo", token: "a").get()
        func names() throws -> [String] {
            try core.messages(project: "demo", filter: MessageLogFilter(token: "a")).items.map(\.name)
        }
        XCTAssertEqual(try names(), [before])
        register(core, token: "a")
        let after = sendFCM(core, to: .token("a")).sent!.name
        XCTAssertEqual(try names(), [after, before])
        sendFCM(core, to: .topic("news"))
        try core.uninstallDevice(project: "demo", token: "a").get()
        core.clearMessages(project: "demo")
        XCTAssertEqual(try names(), [])
        XCTAssertEqual(try core.messages(project: "demo", filter: MessageLogFilter(topic: "news")).items, [])
        register(core, token: "a")
        let last = sendFCM(core, to: .token("a")).sent!.name
        let news = sendFCM(core, to: .topic("news")).sent!.name
        XCTAssertEqual(try names(), [last])
        XCTAssertEqual(try core.messages(project: "demo", filter: MessageLogFilter(topic: "news")).items.map(\.name), [news])
    }

    func testPagesStayCorrectWhenMessagesArriveBetweenCalls() throws {
        let core = makeCore()
        register(core)
        let names = (0..<5).map { _ in sendFCM(core).sent!.name }
        let first = try core.messages(project: "demo", page: PageRequest(size: 2))
        XCTAssertEqual(first.items.map(\.name), [names[4], names[3]])
        sendFCM(core)
        let second = try core.messages(project: "demo", page: PageRequest(size: 2, token: first.nextPageToken))
        XCTAssertEqual(second.items.map(\.name), [names[2], names[1]])
        let last = try core.messages(project: "demo", page: PageRequest(size: 2, token: second.nextPageToken))
        XCTAssertEqual(last.items.map(\.name), [names[0]])
        XCTAssertNil(last.nextPageToken)
    }

    func testClearEmptiesTheLogButKeepsQueuedMessages() throws {
        let core = makeCore()
        register(core)
        sendFCM(core)
        core.clearMessages(project: "demo")
        XCTAssertEqual(try core.messages(project: "demo").items, [])
        XCTAssertEqual(try core.connect(project: "demo", token: "device-1").get().count, 1)
    }

    func testMessageNamesCarryIncreasingNineteenDigitIDs() {
        let core = makeCore()
        register(core)
        let ids = (0..<3).map { _ in sendFCM(core).sent!.messageID }
        XCTAssertEqual(ids.map(\.count), [19, 19, 19])
        XCTAssertEqual(ids.map { UInt64($0)! }, ids.map { UInt64($0)! }.sorted())
        XCTAssertEqual(Set(ids).count, 3)
        XCTAssertEqual(sendFCM(core).sent?.name.hasPrefix("projects/demo/messages/"), true)
    }

    func testNotificationEventJSONHasTheFieldsOfTheSpecInOrder() throws {
        let core = makeCore()
        register(core)
        let sent = sendFCM(core, notification: .init(title: "Portugal vs. Denmark", body: "great match!"), data: []).sent!
        let event = try core.connect(project: "demo", token: "device-1").get()[0]
        guard case .object(let json) = event.json else { return XCTFail("an event is an object") }
        XCTAssertEqual(
            json.keys, ["type", "id", "messageName", "origin", "sentAt", "deliveredAt", "headers", "payload", "presentation"])
        XCTAssertEqual(json["type"], str("notification"))
        XCTAssertEqual(json["id"], str("d-1"))
        XCTAssertEqual(json["messageName"], str(sent.name))
        XCTAssertEqual(json["origin"], str("fcm"))
        XCTAssertEqual(json["sentAt"], str("2026-11-22T10:00:00Z"))
        XCTAssertEqual(json["deliveredAt"], str("2026-11-22T10:00:00Z"))
        guard case .object(let headers)? = json["headers"] else { return XCTFail("headers are an object") }
        XCTAssertEqual(headers.keys, ["apns-push-type", "apns-priority", "apns-topic", "apns-expiration", "apns-id"])
        XCTAssertEqual(headers["apns-expiration"], str("1797933600"))
        guard case .object(let payload)? = json["payload"] else { return XCTFail("payload is an object") }
        XCTAssertEqual(payload.keys, ["aps", "gcm.message_id", "google.c.a.e", "google.c.sender.id"])
        XCTAssertEqual(payload["google.c.sender.id"], str(SenderID.derived(fromProjectID: "demo")))
    }

    func testMessagesDeletedEventJSON() {
        XCTAssertEqual(
            DeviceEvent.messagesDeleted(reason: .tooManyPending, count: 117).json,
            obj(("type", str("messagesDeleted")), ("reason", str("tooManyPending")), ("count", num(117))))
    }

    func testConfiguredSenderIDIsUsed() {
        let core = makeCore(PushCoreConfiguration(senderID: "358118532563"))
        register(core)
        let payload = sendFCM(core).sent!.deliveries(in: core)[0].notification.payload
        XCTAssertEqual(payload["google.c.sender.id"], str("358118532563"))
    }

    func testResetForgetsProjectsAndTheClockOffset() throws {
        let core = makeCore()
        register(core)
        register(core, project: "other")
        core.advanceClock(seconds: 100)
        core.resetProject("demo")
        XCTAssertEqual(try core.devices(project: "demo").items, [])
        XCTAssertEqual(try core.devices(project: "other").items.count, 1)
        core.resetAll()
        XCTAssertEqual(try core.devices(project: "other").items, [])
        XCTAssertEqual(core.clock.offsetSeconds, 0)
    }
}

/// What the log keeps of a request body (`LoggedRequestBody`).
final class LoggedRequestBodyTests: XCTestCase {
    /// A megabyte of whitespace around a short message: the log keeps the message's bytes, not
    /// the megabyte, and shows the same request.
    func testLongBodyIsKeptWithoutItsPadding() throws {
        let core = makeCore()
        register(core)
        let message = Array(#"{"message":{"token":"device-1","data":{"k":"a  b"}}}"#.utf8)
        let padded = Array(message.dropLast()) + [UInt8](repeating: 0x20, count: 1_000_000) + [0x7D]
        let sent = core.send(project: "demo", target: .token("device-1"), origin: .fcm, requestBody: padded) { context in
            Result<DeliveryContent?, Never>.success(AppleConversion.convert(AppleConversionInput(context: context, notification: nil, data: [], apnsHeaders: [])))
        }
        XCTAssertNotNil(sent.sent)
        let logged = try XCTUnwrap(core.messages(project: "demo").items.first)
        XCTAssertEqual(logged.requestBody, message)
        XCTAssertLessThan(logged.requestBody.capacity, 1024)
        XCTAssertEqual(logged.request, try JSONParser.parse(padded))
    }

    /// Up to the limit a body is kept as sent, whitespace and all; one byte over, compacted.
    func testBodiesUpToTheLimitAreKeptAsSent() {
        let head = Array(#"{"message":{"topic":"news"}"#.utf8)
        let atLimit = head + [UInt8](repeating: 0x20, count: LoggedRequestBody.keptAsSentLimit - head.count - 1) + [0x7D]
        XCTAssertEqual(atLimit.count, LoggedRequestBody.keptAsSentLimit)
        XCTAssertEqual(LoggedRequestBody.kept(atLimit), atLimit)
        let overLimit = head + [UInt8](repeating: 0x20, count: LoggedRequestBody.keptAsSentLimit - head.count) + [0x7D]
        XCTAssertEqual(LoggedRequestBody.kept(overLimit), head + [0x7D])
    }
}
