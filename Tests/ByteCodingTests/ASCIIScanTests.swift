import XCTest
@testable import ByteCoding

/// The vectorizable loops of `ASCIIScan` against the plain definitions, for every ASCII byte value
/// at the start, middle and end of texts of 1, 7, 33 and 80 bytes.
final class ASCIIScanTests: XCTestCase {
    private func plainIsHex(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }
    private func plainHasUppercase(_ bytes: [UInt8]) -> Bool { bytes.contains { (0x41...0x5A).contains($0) } }

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

    func testNonASCIITextIsNotHex() {
        for text in ["é", "aé", "ａ", "0x💥", "Ä"] {
            XCTAssertFalse(ASCIIScan.isHex(text))
            XCTAssertFalse(ASCIIScan.hasUppercase(text))
        }
        XCTAssertTrue(ASCIIScan.isHex(""))
        XCTAssertTrue(ASCIIScan.isHex(String(repeating: "0aF", count: 30)))
    }
}
