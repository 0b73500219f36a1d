import XCTest
@testable import ByteCoding

/// `ASCIIDigest` against the bytes it digests: equal bytes give equal digests whether read from a
/// `String` (native, small, bridged through a substring) or from raw bytes, a string with a byte
/// that is not ASCII gets `nonASCII`, and strings that differ in one byte or in length (every
/// length around the word boundaries) get different digests.
final class ASCIIDigestTests: XCTestCase {
    private func digest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { ASCIIDigest.digest(of: $0) }
    }

    func testEqualBytesGiveEqualDigestsAndOthersDiffer() {
        var random = SeededRandom(seed: 21)
        for count in 0...200 {
            for _ in 0..<20 {
                let bytes = (0..<count).map { _ in UInt8.random(in: 0x20..<0x7F, using: &random) }
                let text = String(decoding: bytes, as: UTF8.self)
                let expected = digest(bytes)
                XCTAssertEqual(ASCIIDigest.digest(of: text), expected, "\(text)")
                XCTAssertEqual(ASCIIDigest.digest(of: String(("x" + text).dropFirst())), expected, "\(text)")
                guard count > 0 else { continue }
                var changed = bytes
                changed[Int.random(in: 0..<count, using: &random)] ^= UInt8.random(in: 1..<0x20, using: &random)
                if changed.allSatisfy({ $0 < 0x80 }) && changed != bytes {
                    XCTAssertNotEqual(digest(changed), expected, "\(bytes) and \(changed)")
                }
                XCTAssertNotEqual(digest(bytes + [UInt8(ascii: "a")]), expected, "\(bytes) and one more byte")
                XCTAssertNotEqual(digest(Array(bytes.dropLast())), expected, "\(bytes) and one byte fewer")
            }
        }
    }

    func testAStringWithANonASCIIByteGetsTheNonASCIIDigest() {
        var random = SeededRandom(seed: 22)
        for count in 1...100 {
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x20..<0x7F, using: &random) }
            bytes[Int.random(in: 0..<count, using: &random)] = UInt8.random(in: 0x80...0xFF, using: &random)
            XCTAssertEqual(digest(bytes), ASCIIDigest.nonASCII, "\(bytes)")
        }
        XCTAssertEqual(ASCIIDigest.digest(of: "token-\u{212A}"), ASCIIDigest.nonASCII)
    }
}
