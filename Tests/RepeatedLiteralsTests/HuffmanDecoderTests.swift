import XCTest

@testable import RepeatedLiterals

final class HuffmanDecoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBytes { HuffmanDecoder.decode($0) }
    }

    func testCodesAreRFC7541s() {
        // Appendix B: '0', 'a', 0, '\n', 255 and EOS.
        XCTAssertTrue(HuffmanDecoder.code(of: 48) == (0x0, 5))
        XCTAssertTrue(HuffmanDecoder.code(of: 97) == (0x3, 5))
        XCTAssertTrue(HuffmanDecoder.code(of: 0) == (0x1FF8, 13))
        XCTAssertTrue(HuffmanDecoder.code(of: 10) == (0x3FFF_FFFC, 30))
        XCTAssertTrue(HuffmanDecoder.code(of: 255) == (0x3FF_FFEE, 26))
        XCTAssertTrue(HuffmanDecoder.code(of: 256) == (0x3FFF_FFFF, 30))
    }

    func testDecodesRFC7541sExamples() {
        // Appendix C.4.1 and C.4.2.
        XCTAssertEqual(decode([0xF1, 0xE3, 0xC2, 0xE5, 0xF2, 0x3A, 0x6B, 0xA0, 0xAB, 0x90, 0xF4, 0xFF]), Array("www.example.com".utf8))
        XCTAssertEqual(decode([0xA8, 0xEB, 0x10, 0x64, 0x9C, 0xBF]), Array("no-cache".utf8))
        XCTAssertEqual(decode([]), [])
    }

    func testRefusesWhatRFC7541Refuses() {
        // Padding of 8 bits, padding with a 0 bit, and EOS itself inside the string.
        XCTAssertNil(decode(ClientBytes.huffmanEncoded(Array("a".utf8)) + [0xFF]))
        XCTAssertNil(decode([0x1E]))
        XCTAssertNil(decode([0xFF, 0xFF, 0xFF, 0xFC]))
    }

    func testEverySymbolRoundTrips() {
        let all = (0...255).map { UInt8($0) }
        XCTAssertEqual(decode(ClientBytes.huffmanEncoded(all)), all)
        for byte in all {
            XCTAssertEqual(decode(ClientBytes.huffmanEncoded([byte, byte, byte])), [byte, byte, byte])
        }
    }

    /// Against nghttp2's own decoder: coded strings, and arbitrary bytes, most of them malformed.
    func testAgreesWithNghttp2() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<4000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes: [UInt8]
            if round % 2 == 0 {
                bytes = ClientBytes.huffmanEncoded((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            } else {
                bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            XCTAssertEqual(decode(bytes), ClientBytes.nghttp2HuffmanDecode(bytes), "\(bytes)")
        }
    }
}
