#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import HTTPServer

/// Failing to accept is reported once per episode, not once per connection turned away.
final class AcceptFailureLogTests: XCTestCase {
    private var pipeFDs: [Int32] = [-1, -1]

    override func setUp() {
        XCTAssertEqual(pipe(&pipeFDs), 0)
    }

    override func tearDown() {
        pipeFDs.forEach { close($0) }
    }

    /// What was written so far (every test writes at least one line, so the read does not wait).
    private func written() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(pipeFDs[0], &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init) : []
    }

    func testAnEpisodeAtTheDescriptorLimitIsOneLineHoweverManyConnectionsItTurnsAway() {
        let log = AcceptFailureLog(fd: pipeFDs[1])
        let limit = SystemError(call: "accept4", errno: EMFILE)
        for _ in 0..<1000 { log.failed(limit, turnedAway: true) }
        // Accepting again right after a failure does not end the episode yet.
        log.accepted()
        log.failed(limit, turnedAway: true)
        let lines = written()
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.contains("descriptor limit reached") ?? false, "\(lines)")
    }

    func testAnEpisodeEndsWithOneLineWhenAcceptingWorksAgainAfterAQuietPeriod() {
        let log = AcceptFailureLog(fd: pipeFDs[1], quietNanoseconds: 0)
        let limit = SystemError(call: "accept4", errno: EMFILE)
        log.failed(limit, turnedAway: true)
        log.failed(limit, turnedAway: true)
        log.failed(limit, turnedAway: false)
        log.accepted()
        log.accepted()
        log.failed(limit, turnedAway: true)
        let lines = written()
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(lines[1].contains("accepting connections again (2 closed unanswered"), "\(lines)")
        XCTAssertTrue(lines[2].contains("descriptor limit reached"), "\(lines)")
    }

    func testOtherFailuresAreReportedAsSuch() {
        let log = AcceptFailureLog(fd: pipeFDs[1])
        log.failed(SystemError(call: "accept4", errno: ENOBUFS), turnedAway: false)
        let lines = written()
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines.first?.hasPrefix("push-emulator: cannot accept connections: accept4:") ?? false, "\(lines)")
    }
}
