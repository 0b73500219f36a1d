@testable import PushCore
import XCTest

/// `apns-id`'s shape check against its plain definition: 36 bytes, dashes after the 8th, 12th,
/// 16th and 20th hex digit, hex digits of either case everywhere else.
final class APNsMessageIDTests: XCTestCase {
    private func plainIsCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard byte.isHexDigit else { return false }
            }
        }
        return true
    }

    func testAgreesWithThePlainDefinitionAtEveryPosition() {
        let valid = "abcdef01-2345-6789-ABCD-ef0123456789"
        XCTAssertTrue(APNsRequest.isCanonicalUUID(valid))
        // Every position given every byte that matters: digits, letters on both sides of a-f and
        // A-F, the dash, controls (a lone byte beyond ASCII makes the id longer: see below).
        let replacements: [UInt8] = Array("09afAFgG-/:@`".utf8) + [0x00, 0x20, 0x7F, 0xC3]
        for position in 0..<36 {
            for replacement in replacements {
                var bytes = Array(valid.utf8)
                bytes[position] = replacement
                let text = String(decoding: bytes, as: UTF8.self)
                XCTAssertEqual(APNsRequest.isCanonicalUUID(text), plainIsCanonicalUUID(text), "\(position): \(replacement)")
            }
        }
    }

    func testCharactersBeyondASCIIInThirtySixBytes() {
        // A lone byte beyond ASCII decodes to U+FFFD, three bytes: whole characters of two and
        // three bytes keep the id at 36, over hex positions and across a dash.
        let valid = Array("abcdef01-2345-6789-abcd-ef0123456789".utf8)
        for character in ["\u{E9}", "\u{20AC}"] {
            let bytes = Array(character.utf8)
            for position in 0...(36 - bytes.count) {
                var id = valid
                id.replaceSubrange(position..<(position + bytes.count), with: bytes)
                let text = String(decoding: id, as: UTF8.self)
                XCTAssertEqual(text.utf8.count, 36)
                XCTAssertFalse(APNsRequest.isCanonicalUUID(text), "\(character) at \(position)")
                XCTAssertEqual(APNsRequest.isCanonicalUUID(text), plainIsCanonicalUUID(text))
            }
        }
    }

    func testLengthsAndGroupings() {
        for text in [
            "", "-", "abcdef01-2345-6789-abcd-ef012345678", "abcdef01-2345-6789-abcd-ef01234567890",
            "abcdef0123456789abcdef0123456789abcd", "abcdef012-345-6789-abcd-ef0123456789", "------------------------------------",
            "abcdef01-2345-6789-abcd-ef012345678é",
        ] {
            XCTAssertEqual(APNsRequest.isCanonicalUUID(text), plainIsCanonicalUUID(text), text)
            XCTAssertFalse(APNsRequest.isCanonicalUUID(text), text)
        }
    }
}
