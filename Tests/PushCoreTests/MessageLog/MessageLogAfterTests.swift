import ByteCoding
import PushCore
import XCTest

/// `after`: only messages sent after a given one (docs/fcm.md, "Waiting for a message"), found by
/// its place in the log, or by comparing ids once the log no longer holds it.
final class MessageLogAfterTests: XCTestCase {
    private func ids(_ core: PushEmulatorCore, _ filter: MessageLogFilter, pageSize: Int = 100) throws -> [String] {
        try core.messages(project: "demo", filter: filter, page: PageRequest(size: pageSize)).items.map(\.messageID)
    }

    func testOnlyMessagesSentAfterTheGivenOne() throws {
        let core = makeCore()
        register(core, token: "device-1")
        register(core, token: "device-2")
        let sent = ["device-1", "device-2", "device-1", "device-1"].map { token in
            sendFCM(core, to: .token(token)).sent!.messageName.messageID
        }
        let first = UInt64(sent[0])!
        XCTAssertEqual(try ids(core, MessageLogFilter(afterMessageID: first)), sent[1...].reversed())
        XCTAssertEqual(try ids(core, MessageLogFilter(token: "device-1", afterMessageID: first)), [sent[3], sent[2]])
        XCTAssertEqual(try ids(core, MessageLogFilter(afterMessageID: UInt64(sent[3])!)), [])
        // Paged: the page token leads on, and `after` still bounds the end.
        let firstPage = try core.messages(project: "demo", filter: MessageLogFilter(afterMessageID: first), page: PageRequest(size: 2))
        XCTAssertEqual(firstPage.items.map(\.messageID), [sent[3], sent[2]])
        let next = try core.messages(
            project: "demo", filter: MessageLogFilter(afterMessageID: first),
            page: PageRequest(size: 2, token: firstPage.nextPageToken))
        XCTAssertEqual(next.items.map(\.messageID), [sent[1]])
        XCTAssertNil(next.nextPageToken)
        // An id the log does not hold (cleared, or never given): ids are compared.
        core.clearMessages(project: "demo")
        let later = sendFCM(core, to: .token("device-2")).sent!.messageName.messageID
        XCTAssertEqual(try ids(core, MessageLogFilter(afterMessageID: first)), [later])
        XCTAssertEqual(try ids(core, MessageLogFilter(afterMessageID: UInt64(later)! - 1)), [later])
        XCTAssertEqual(try ids(core, MessageLogFilter(afterMessageID: UInt64(later)!)), [])
    }
}
