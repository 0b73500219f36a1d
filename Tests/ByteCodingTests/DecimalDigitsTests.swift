import XCTest
@testable import ByteCoding

/// The digits against `String(_:)`: every power of ten and its neighbours (where the count of
/// digits changes), the largest value, and random values of every length.
final class DecimalDigitsTests: XCTestCase {
    private func checkDigits(of number: UInt64, file: StaticString = #filePath, line: UInt = #line) {
        let expected = String(number)
        let digits = DecimalDigits.withDigits(of: number) { Array($0) }
        XCTAssertEqual(digits, Array(expected.utf8), "\(number)", file: file, line: line)
        XCTAssertEqual(DecimalDigits.string(of: number), expected, file: file, line: line)
    }

    func testEdgeValues() {
        for number: UInt64 in [0, 1, 9, 10, 11, 99, 100, 99_999_999, 100_000_000, 100_000_001, 9_999_999_999_999_999,
            10_000_000_000_000_000, 1_763_000_000_000_000_000, UInt64(Int64.max), UInt64.max - 1, UInt64.max]
        {
            checkDigits(of: number)
        }
        var power: UInt64 = 1
        while true {
            checkDigits(of: power - 1)
            checkDigits(of: power)
            checkDigits(of: power + 1)
            let (next, overflow) = power.multipliedReportingOverflow(by: 10)
            if overflow { break }
            power = next
        }
    }

    func testRandomValuesOfEveryLength() {
        var random = SeededRandom(seed: 12)
        for _ in 0..<20_000 {
            // A random bit length, so that short numbers are drawn as often as long ones.
            let bits = UInt64.random(in: 0...64, using: &random)
            let number = bits == 64 ? random.next() : random.next() & ((1 << bits) - 1)
            checkDigits(of: number)
        }
    }
}
