import PushCore
import Synchronization
import XCTest

final class ClockAndTokenTests: XCTestCase {
    func testRFC3339() {
        XCTAssertEqual(Timestamp(millisecondsSinceEpoch: 0).rfc3339, "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp(millisecondsSinceEpoch: fixedWallTime).rfc3339, "2026-11-22T10:00:00Z")
        XCTAssertEqual(Timestamp(millisecondsSinceEpoch: fixedWallTime + 250).rfc3339, "2026-11-22T10:00:00.250Z")
        XCTAssertEqual(Timestamp(secondsSinceEpoch: 1_709_251_199).rfc3339, "2024-02-29T23:59:59Z")
        XCTAssertEqual(Timestamp(secondsSinceEpoch: 951_782_400).rfc3339, "2000-02-29T00:00:00Z")
        XCTAssertEqual(Timestamp(millisecondsSinceEpoch: -1).rfc3339, "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp(millisecondsSinceEpoch: -1).secondsSinceEpoch, -1)
    }

    func testTimestampsFromOutOfRangeNumbersStayWithinWhatRFC3339Writes() {
        // Any 19-digit apns-expiration reaches these, and one trapped the server once.
        XCTAssertEqual(Timestamp(secondsSinceEpoch: .max), .latest)
        XCTAssertEqual(Timestamp(secondsSinceEpoch: 999_999_999_999_999_999).rfc3339, "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(Timestamp(secondsSinceEpoch: .min), .earliest)
        XCTAssertEqual(Timestamp.earliest.rfc3339, "0001-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp(millisecondsSinceEpoch: fixedWallTime).adding(seconds: .max), .latest)
        XCTAssertEqual(Timestamp(millisecondsSinceEpoch: fixedWallTime).adding(seconds: .min), .earliest)
        XCTAssertEqual(Timestamp.latest.adding(seconds: 1), .latest)
        XCTAssertEqual(Timestamp(secondsSinceEpoch: 253_402_300_799).rfc3339, "9999-12-31T23:59:59Z")
    }

    func testClockAdvancedPastAnyDateStopsAtTheLatest() {
        let core = makeCore()
        core.advanceClock(seconds: .max)
        core.advanceClock(seconds: .max)
        XCTAssertEqual(core.now, .latest)
        core.resetClock()
        XCTAssertEqual(core.now.rfc3339, "2026-11-22T10:00:00Z")
    }

    func testClockAdvancesAndResets() {
        let core = makeCore()
        XCTAssertEqual(core.now.rfc3339, "2026-11-22T10:00:00Z")
        XCTAssertEqual(core.advanceClock(seconds: 31 * 86_400).rfc3339, "2026-12-23T10:00:00Z")
        XCTAssertEqual(core.clock.offsetSeconds, 31 * 86_400)
        core.advanceClock(seconds: -86_400)
        XCTAssertEqual(core.now.rfc3339, "2026-12-22T10:00:00Z")
        core.resetClock()
        XCTAssertEqual(core.now.rfc3339, "2026-11-22T10:00:00Z")
        XCTAssertEqual(core.clock.offsetSeconds, 0)
    }

    func testClockFollowsWallTime() {
        let wall = WallTime(fixedWallTime)
        var clock = EmulatorClock(wallTime: wall.read)
        clock.advance(seconds: 60)
        wall.set(fixedWallTime + 1000)
        XCTAssertEqual(clock.now, Timestamp(millisecondsSinceEpoch: fixedWallTime + 61_000))
    }

    func testGeneratedTokensLookRealAndAreReproducible() {
        var random = SeededRandomNumberGenerator(seed: 7)
        let token = RegistrationToken.generate(using: &random)
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        XCTAssertEqual(parts.count, 2)
        XCTAssertEqual(parts[0].count, 22)
        XCTAssertTrue(parts[1].hasPrefix("APA91b"))
        XCTAssertEqual(parts[1].count, 140)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        XCTAssertTrue((parts[0] + parts[1]).allSatisfy(allowed.contains))
        XCTAssertTrue(RegistrationToken.isWellFormed(token))
        var again = SeededRandomNumberGenerator(seed: 7)
        XCTAssertEqual(RegistrationToken.generate(using: &again), token)
        XCTAssertNotEqual(RegistrationToken.generate(using: &again), token)
    }

    func testTokenWellFormedness() {
        XCTAssertTrue(RegistrationToken.isWellFormed("test-device_1"))
        XCTAssertTrue(RegistrationToken.isWellFormed("f7Wfr_yqG00Gt6B9O7qI13"))
        XCTAssertFalse(RegistrationToken.isWellFormed(""))
        XCTAssertFalse(RegistrationToken.isWellFormed("has space"))
        XCTAssertFalse(RegistrationToken.isWellFormed("a/b"))
        XCTAssertFalse(RegistrationToken.isWellFormed("tökén"))
        XCTAssertTrue(RegistrationToken.isWellFormed(String(repeating: "a", count: 4096)))
        XCTAssertFalse(RegistrationToken.isWellFormed(String(repeating: "a", count: 4097)))
        XCTAssertTrue(APNsDeviceToken.isWellFormed(String(repeating: "aB", count: 32)))
        XCTAssertTrue(APNsDeviceToken.isWellFormed(String(repeating: "0f", count: 80)))
        XCTAssertFalse(APNsDeviceToken.isWellFormed("abc"))
        XCTAssertFalse(APNsDeviceToken.isWellFormed("zz"))
    }

    func testAPNsTokensAreLowercasedOnlyWhenTheyHaveCapitals() {
        XCTAssertEqual(APNsDeviceToken.normalized("abcdef0123"), "abcdef0123")
        XCTAssertEqual(APNsDeviceToken.normalized("ABCDEF0123"), "abcdef0123")
        XCTAssertEqual(APNsDeviceToken.normalized("abcdeF"), "abcdef")
        XCTAssertEqual(APNsDeviceToken.normalized("Zz@[`{"), "zz@[`{")
        XCTAssertEqual(APNsDeviceToken.normalized(""), "")
    }

    func testSenderIDIsStableAndTwelveDigits() {
        let demo = SenderID.derived(fromProjectID: "demo")
        XCTAssertEqual(demo.count, 12)
        XCTAssertEqual(demo, SenderID.derived(fromProjectID: "demo"))
        XCTAssertNotEqual(demo, SenderID.derived(fromProjectID: "demo-2"))
        XCTAssertEqual(SenderID.derived(fromProjectID: "").count, 12)
    }

    func testRandomUUIDsAreCanonicalVersionFour() {
        var random = SeededRandomNumberGenerator(seed: 1)
        let uuid = RandomUUID(using: &random).text
        let groups = uuid.split(separator: "-").map(\.count)
        XCTAssertEqual(groups, [8, 4, 4, 4, 12])
        XCTAssertEqual(Array(uuid)[14], "4")
        XCTAssertTrue("89ab".contains(Array(uuid)[19]))
        XCTAssertEqual(uuid, uuid.lowercased())
        XCTAssertNotEqual(RandomUUID(using: &random).text, uuid)
    }
}

/// A wall clock a test can set.
final class WallTime: Sendable {
    private let milliseconds: Mutex<Int64>

    init(_ start: Int64) { milliseconds = Mutex(start) }

    func set(_ value: Int64) { milliseconds.withLock { $0 = value } }

    @Sendable func read() -> Int64 { milliseconds.withLock { $0 } }
}

/// Message ids, written eight digits at a time, against `String(_:)` of the same numbers.
final class MessageIDGeneratorTests: XCTestCase {
    func testIDsAreTheDecimalNumbers() {
        var random = SeededRandomNumberGenerator(seed: 3)
        var starts: [Int64] = [0, 1, 9, 10, 99_999_999, 1_763_000_000_000, Int64.max / 1_000_000]
        starts += (0..<200).map { _ in Int64.random(in: 1...(Int64.max / 1_000_000), using: &random) }
        var power: Int64 = 1
        for _ in 0..<13 {
            starts += [power - 1, power, power + 1]
            power *= 10
        }
        for start in starts {
            var generator = MessageIDGenerator(wallTimeMilliseconds: start)
            let first = UInt64(max(start, 1)) &* 1_000_000
            for offset in 0..<3 {
                XCTAssertEqual(generator.make(), String(first + UInt64(offset)))
            }
        }
    }
}
