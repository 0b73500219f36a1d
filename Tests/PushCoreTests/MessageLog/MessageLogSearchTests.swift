import ByteCoding
import PushCore
import XCTest

/// The log's `origin` and `text` filters, and a message read by its id (the inbox's message page).
final class MessageLogSearchTests: XCTestCase {
    /// Sends `request` (an FCM body) to device-1 and returns the message's id.
    private func sendLogged(_ core: PushEmulatorCore, _ request: JSONValue) -> String {
        let outcome = core.send(project: "demo", target: .token("device-1"), origin: .fcm, request: request) { context in
            Result<DeliveryContent?, Never>.success(
                AppleConversion.convert(AppleConversionInput(context: context, notification: nil, data: [], apnsHeaders: [])))
        }
        return MessageName(parsing: outcome.sent!.name)!.messageID
    }

    private func ids(_ core: PushEmulatorCore, _ filter: MessageLogFilter) throws -> [String] {
        try core.messages(project: "demo", filter: filter).items.map(\.messageID)
    }

    func testTextFindsTitlesBodiesAndDataWhateverTheCase() throws {
        let core = makeCore()
        register(core, apnsToken: String(repeating: "ab", count: 32))
        let titled = sendLogged(core, obj(("message", obj(("notification", obj(("title", str("Your Order shipped"))))))))
        let inData = sendLogged(core, obj(("message", obj(("data", obj(("orderId", str("ORDER-42"))))))))
        let inAPNsAlert = sendLogged(
            core, obj(("message", obj(("apns", obj(("payload", obj(("aps", obj(("alert", obj(("subtitle", str("order update"))))))))))))))
        let inTokenOnly = sendLogged(core, obj(("message", obj(("token", str("order"))))))
        let pushed = sendAPNs(core, apnsToken: String(repeating: "ab", count: 32), body: "Order ready").sent!
        XCTAssertEqual(
            try ids(core, MessageLogFilter(text: "ORDER")),
            [MessageName(parsing: pushed.name)!.messageID, inAPNsAlert, inData, titled])
        XCTAssertFalse(try ids(core, MessageLogFilter(text: "order")).contains(inTokenOnly), "a token is not searched")
        XCTAssertEqual(try ids(core, MessageLogFilter(text: "shipped")), [titled])
        XCTAssertEqual(try ids(core, MessageLogFilter(text: "no such words")), [])
    }

    func testOriginKeepsOneAPIsMessagesAndCombinesWithText() throws {
        let core = makeCore()
        register(core, apnsToken: String(repeating: "cd", count: 32))
        let fcm = sendLogged(core, obj(("message", obj(("notification", obj(("body", str("hello"))))))))
        let apns = MessageName(parsing: sendAPNs(core, apnsToken: String(repeating: "cd", count: 32), body: "hello").sent!.name)!.messageID
        XCTAssertEqual(try ids(core, MessageLogFilter(origin: .fcm)), [fcm])
        XCTAssertEqual(try ids(core, MessageLogFilter(origin: .apns)), [apns])
        XCTAssertEqual(try ids(core, MessageLogFilter(origin: .apns, text: "HELLO")), [apns])
        XCTAssertEqual(try ids(core, MessageLogFilter(token: "device-1", origin: .fcm, text: "hello")), [fcm])
    }

    func testAMessageIsReadByItsID() throws {
        let core = makeCore()
        register(core)
        let first = sendLogged(core, obj(("message", obj(("data", obj(("n", str("1"))))))))
        let second = sendLogged(core, obj(("message", obj(("data", obj(("n", str("2"))))))))
        XCTAssertEqual(core.message(project: "demo", messageID: first)?.request, obj(("message", obj(("data", obj(("n", str("1"))))))))
        XCTAssertEqual(core.message(project: "demo", messageID: second)?.deliveries.map(\.token), ["device-1"])
        XCTAssertNil(core.message(project: "demo", messageID: "0" + first), "an id is read as written, not as a number")
        XCTAssertNil(core.message(project: "other", messageID: first))
        XCTAssertNil(core.message(project: "demo", messageID: "x"))
        core.clearMessages(project: "demo")
        XCTAssertNil(core.message(project: "demo", messageID: first))
    }
}
