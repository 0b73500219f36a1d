import XCTest

@testable import PushCore

/// The log keeps its entries in chunks: read back, they are every entry, newest first, as one
/// array would give them.
final class MessageLogChunkTests: XCTestCase {
    func testEntriesAcrossChunksReadNewestFirst() throws {
        let chunk = ChunkedArray<MessageLog.Entry>.defaultChunkCapacity
        for count in [0, 1, chunk, chunk + 1, 2 * chunk + 3] {
            var log = MessageLog()
            for number in 0..<count {
                log.append(
                    name: "projects/demo/messages/\(number)", origin: .fcm,
                    sentAt: Timestamp(secondsSinceEpoch: 1), target: .token("t\(number % 3)"),
                    requestBody: Array("{}".utf8), deliveryNumbers: number..<number + 1)
            }
            XCTAssertEqual(
                try names(of: log, filter: MessageLogFilter()),
                (0..<count).reversed().map { "projects/demo/messages/\($0)" })
            XCTAssertEqual(
                try names(of: log, filter: MessageLogFilter(token: "t1")),
                (0..<count).reversed().filter { $0 % 3 == 1 }.map { "projects/demo/messages/\($0)" })
            log.clear()
            XCTAssertEqual(try names(of: log, filter: MessageLogFilter()), [])
        }
    }

    private func names(of log: MessageLog, filter: MessageLogFilter) throws -> [String] {
        var names = [String]()
        var token: String?
        repeat {
            let page = try log.page(
                matching: filter, deliveries: DeliveryStore(),
                page: PageRequest(size: PageRequest.maximumSize, token: token))
            names += page.items.map(\.name)
            token = page.nextPageToken
        } while token != nil
        return names
    }
}
