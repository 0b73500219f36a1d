import XCTest

@testable import PushCore

/// The log keeps its entries in chunks: read back, they are every entry, newest first, as one
/// array would give them.
final class MessageLogChunkTests: XCTestCase {
    func testEntriesAcrossChunksReadNewestFirst() throws {
        let chunk = ChunkedArray<MessageLog.Entry>.defaultChunkCapacity
        for count in [0, 1, chunk, chunk + 1, 2 * chunk + 3] {
            var log = MessageLog()
            // Every fifth to a topic, the others to one of three tokens; the project keeps the
            // sequences of a token's entries (`Device.messageLogSequences`), here those of t1.
            var sequencesOfT1 = ChunkedArray<Int>()
            func isToT1(_ number: Int) -> Bool { number % 5 != 0 && number % 3 == 1 }
            for number in 0..<count {
                if isToT1(number) { sequencesOfT1.append(log.nextSequence) }
                log.append(
                    name: MessageName(project: "demo", id: UInt64(number)), origin: .fcm,
                    sentAt: Timestamp(secondsSinceEpoch: 1),
                    target: number % 5 == 0 ? .topic("news") : .token("t\(number % 3)"),
                    requestBody: Array("{}".utf8), deliveryNumbers: number..<number + 1)
            }
            XCTAssertEqual(
                try names(of: log, filter: MessageLogFilter()),
                (0..<count).reversed().map { "projects/demo/messages/\($0)" })
            XCTAssertEqual(
                try names(of: log, filter: MessageLogFilter(token: "t1"), sequencesOfToken: sequencesOfT1),
                (0..<count).reversed().filter(isToT1).map { "projects/demo/messages/\($0)" })
            XCTAssertEqual(
                try names(of: log, filter: MessageLogFilter(topic: "news")),
                (0..<count).reversed().filter { $0 % 5 == 0 }.map { "projects/demo/messages/\($0)" })
            log.clear()
            XCTAssertEqual(try names(of: log, filter: MessageLogFilter()), [])
            XCTAssertEqual(try names(of: log, filter: MessageLogFilter(topic: "news")), [])
            // Sequences of cleared entries find nothing.
            XCTAssertEqual(try names(of: log, filter: MessageLogFilter(token: "t1"), sequencesOfToken: sequencesOfT1), [])
        }
    }

    private func names(
        of log: MessageLog, filter: MessageLogFilter, sequencesOfToken: ChunkedArray<Int> = ChunkedArray()
    ) throws -> [String] {
        var names = [String]()
        var token: String?
        repeat {
            let page = try log.page(
                matching: filter, sequencesOfToken: sequencesOfToken, deliveries: ProjectDeliveries([]),
                page: PageRequest(size: PageRequest.maximumSize, token: token))
            names += page.items.map(\.name)
            token = page.nextPageToken
        } while token != nil
        return names
    }
}
