import XCTest
@testable import ByteCoding

/// Each word test against the byte-by-byte answer it stands for: the lowest byte it flags is
/// the first byte that matches, for words where several bytes match, none does, or a byte just
/// below or above the one sought comes first.
final class WordBytesTests: XCTestCase {
    private func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    private func check(_ name: String, flags: (UInt64) -> UInt64, matches: (UInt8) -> Bool) {
        var random = SeededRandom(seed: 7)
        // Bytes around every boundary the tests use, and any byte at all.
        let interesting: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0B, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x2F, 0x30, 0x39, 0x3A, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xFF]
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in
                Bool.random(using: &random) ? interesting.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            let expected = bytes.firstIndex(where: matches) ?? 8
            XCTAssertEqual(WordBytes.firstFlaggedByte(in: flags(word(bytes))), expected, "\(name) \(bytes)")
        }
    }

    /// `equal` answers as `==` over the same bytes, for lengths around a word's and a difference at
    /// every position.
    func testEqualBuffersAgreeWithTheirArrays() {
        var random = SeededRandom(seed: 11)
        for length in 0..<40 {
            let first = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            var cases = [(first, first), (first, first + [0])]
            for position in 0..<length {
                var other = first
                other[position] ^= UInt8.random(in: 1...255, using: &random)
                cases.append((first, other))
            }
            for (left, right) in cases {
                let equal = left.withUnsafeBytes { a in right.withUnsafeBytes { b in WordBytes.equal(a, b) } }
                XCTAssertEqual(equal, left == right, "\(left) \(right)")
            }
        }
    }

    func testEqualityFindsTheFirstEqualByte() {
        for byte: UInt8 in [0x00, 0x0A, 0x22, 0x5C, 0x7F, 0x80, 0xFF] {
            check("== \(byte)", flags: { WordBytes.flags(equalTo: byte, in: $0) }, matches: { $0 == byte })
        }
    }

    func testBelowFindsTheFirstSmallerByte() {
        for bound: UInt8 in [0x01, 0x20, 0x30, 0x80] {
            check("< \(bound)", flags: { WordBytes.flags(below: bound, in: $0) }, matches: { $0 < bound })
        }
    }

    func testNonASCIIAndJSONStringFlagsFindTheFirstByteThatNeedsALook() {
        check("non-ASCII", flags: WordBytes.nonASCIIFlags(in:), matches: { $0 >= 0x80 })
        check("escape", flags: JSONStringBytes.escapeFlags, matches: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
        check("look", flags: JSONStringBytes.lookFlags, matches: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x80 })
    }

    func testNonDigitFlagsFindTheFirstNonDigitAmongASCII() {
        check("non-digit", flags: { WordBytes.nonDigitFlags(in: $0 & 0x7F7F_7F7F_7F7F_7F7F) }, matches: { !(0x30...0x39).contains($0 & 0x7F) })
    }

    func testFirstBytesKeepsThatManyBytes() {
        let all = word([1, 2, 3, 4, 5, 6, 7, 8])
        for count in 0...8 {
            XCTAssertEqual(WordBytes.firstBytes(of: all, count: count), word((0..<8).map { $0 < count ? UInt8($0 + 1) : 0 }))
        }
    }
}
