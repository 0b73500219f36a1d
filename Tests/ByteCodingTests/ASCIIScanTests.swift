import XCTest
@testable import ByteCoding

/// The vectorizable loops of `ASCIIScan` against the plain definitions, for every ASCII byte value
/// at the start, middle and end of texts of 1, 7, 33 and 80 bytes, and the field-value check for
/// every byte value.
final class ASCIIScanTests: XCTestCase {
    private func plainIsHex(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }
    private func plainHasUppercase(_ bytes: [UInt8]) -> Bool { bytes.contains { (0x41...0x5A).contains($0) } }
    /// RFC 9110's field-vchar, obs-text, SP and HTAB.
    private func plainIsFieldValue(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x09 || $0 == 0x20 || (0x21...0x7E).contains($0) || $0 >= 0x80 }
    }

    func testEveryByteInEveryPositionAgreesWithThePlainDefinitions() {
        for length in [1, 7, 33, 80] {
            for position in Set([0, length / 2, length - 1]) {
                for value in 0..<128 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(value)
                    let text = String(decoding: bytes, as: UTF8.self)
                    XCTAssertEqual(ASCIIScan.isHex(text), plainIsHex(bytes), "\(bytes)")
                    XCTAssertEqual(ASCIIScan.hasUppercase(text), plainHasUppercase(bytes), "\(bytes)")
                }
            }
        }
    }

    /// Field values are bytes, not text: every byte value, beyond ASCII too, in every position of
    /// lengths on both sides of the vector loop's width.
    func testFieldValueCheckAgreesWithThePlainDefinitionForEveryByte() {
        for length in [1, 2, 15, 16, 17, 31, 32, 33, 64, 130] {
            for position in Set([0, min(1, length - 1), length / 2, max(0, length - 2), length - 1]) {
                for value in 0..<256 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(value)
                    let checked = bytes.withUnsafeBytes { ASCIIScan.isFieldValue($0) }
                    XCTAssertEqual(checked, plainIsFieldValue(bytes), "\(value) at \(position) of \(length)")
                }
            }
        }
        XCTAssertTrue(ASCIIScan.isFieldValue(UnsafeRawBufferPointer(start: nil, count: 0)))
        let value = Array("Bearer ya29.c.b0-_~+/=\t\u{e9}".utf8)
        XCTAssertTrue(value.withUnsafeBytes { ASCIIScan.isFieldValue($0) })
    }

    func testNonASCIITextIsNotHex() {
        for text in ["é", "aé", "ａ", "0x💥", "Ä"] {
            XCTAssertFalse(ASCIIScan.isHex(text))
            XCTAssertFalse(ASCIIScan.hasUppercase(text))
        }
        XCTAssertTrue(ASCIIScan.isHex(""))
        XCTAssertTrue(ASCIIScan.isHex(String(repeating: "0aF", count: 30)))
    }
}

/// `ASCIIScan.jsonMayHold`: never false where the text holds the needle (lowercased, compared as
/// Swift strings), and exactly that for plain ASCII without escapes.
final class ASCIIScanMayHoldTests: XCTestCase {
    private func reference(_ text: [UInt8], _ needle: String) -> Bool {
        String(decoding: text, as: UTF8.self).lowercased().contains(needle.lowercased())
    }

    func testAgreesWithLowercasingAndContains() {
        let cases: [(String, String)] = [
            (#"{"title":"Order SHIPPED"}"#, "shipped"), (#"{"title":"Order"}"#, "orders"), ("", "a"), ("abc", ""),
            (#"{"a":"\u0041BC"}"#, "abc"), ("K\u{212A}", "kk"), ("Straße", "strasse"), ("İstanbul", "i"),
            ("[1,2,3]", "2,3"), ("aaab", "aab"), ("ab", "abc"),
        ]
        for (text, needle) in cases {
            let bytes = Array(text.utf8)
            let found = ASCIIScan.jsonMayHold(bytes, lowercasedNeedle: Array(needle.lowercased().utf8))
            if reference(bytes, needle) { XCTAssertTrue(found, "\(text) / \(needle)") }
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aAbB{}\":,\\é K".utf8)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let needle = String(decoding: (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)! }, as: UTF8.self).lowercased()
            let found = ASCIIScan.jsonMayHold(text, lowercasedNeedle: Array(needle.utf8))
            let expected = reference(text, needle)
            if expected { XCTAssertTrue(found, "\(text) / \(needle)") }
            let plain = text.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\\") } && needle.utf8.allSatisfy { $0 < 0x80 }
            if plain { XCTAssertEqual(found, expected, "\(text) / \(needle)") }
        }
    }
}
