import XCTest
@testable import HTTPServer

/// Durations become nanoseconds by saturating: one too long to count means "never", not a trap.
final class MonotonicClockTests: XCTestCase {
    func testMillisecondsSaturate() {
        XCTAssertEqual(MonotonicClock.nanoseconds(milliseconds: 250), 250_000_000)
        XCTAssertEqual(MonotonicClock.nanoseconds(milliseconds: -5), 0)
        XCTAssertEqual(MonotonicClock.nanoseconds(milliseconds: 100_000_000_000_000), .max)
        XCTAssertEqual(MonotonicClock.nanoseconds(milliseconds: .max), .max)
    }

    func testSecondsSaturate() {
        XCTAssertEqual(MonotonicClock.nanoseconds(seconds: 1.5), 1_500_000_000)
        XCTAssertEqual(MonotonicClock.nanoseconds(seconds: -1), 0)
        XCTAssertEqual(MonotonicClock.nanoseconds(seconds: .nan), 0)
        XCTAssertEqual(MonotonicClock.nanoseconds(seconds: 1e300), .max)
        XCTAssertEqual(MonotonicClock.nanoseconds(seconds: .infinity), .max)
    }

    func testDeadlinesSaturate() {
        XCTAssertEqual(MonotonicClock.deadline(after: .max), .max)
        XCTAssertGreaterThanOrEqual(MonotonicClock.deadline(after: 0), 1)
    }

    func testSchedulingFarAheadDoesNotTrap() throws {
        // `GET /emulator/v1/debug/tick?intervalMs=100000000000000` once trapped here (ms → ns).
        let loop = try EventLoop()
        loop.schedule(afterMilliseconds: 100_000_000_000_000) {}
        loop.schedule(afterMilliseconds: .max) {}
        loop.shutdownGracefully(graceSeconds: 1e300)
    }
}
