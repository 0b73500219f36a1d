import XCTest
@testable import PushCore

/// The vectorizable loops of `ASCIIText` against the plain definitions, for every byte value
/// in every position of a short text, and over texts of every length up to 80 bytes.
final class ASCIITextTests: XCTestCase {
    private func plainIsHex(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }
    private func plainHasUppercase(_ bytes: [UInt8]) -> Bool { bytes.contains { (0x41...0x5A).contains($0) } }
    private func plainIsBundleIDText(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2E || $0 == 0x2D
                || $0 == 0x5F
        }
    }

    func testEveryByteInEveryPositionAgreesWithThePlainDefinitions() {
        for length in [1, 7, 33, 80] {
            for position in Set([0, length / 2, length - 1]) {
                for value in 0..<128 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(value)
                    let text = String(decoding: bytes, as: UTF8.self)
                    XCTAssertEqual(ASCIIText.isHex(text), plainIsHex(bytes), "\(bytes)")
                    XCTAssertEqual(ASCIIText.hasUppercase(text), plainHasUppercase(bytes), "\(bytes)")
                    XCTAssertEqual(ASCIIText.isBundleIDText(text), plainIsBundleIDText(bytes), "\(bytes)")
                }
            }
        }
    }

    func testNonASCIITextIsNeitherHexNorABundleID() {
        for text in ["é", "aé", "ａ", "0x💥", "Ä"] {
            XCTAssertFalse(ASCIIText.isHex(text))
            XCTAssertFalse(ASCIIText.isBundleIDText(text))
            XCTAssertFalse(ASCIIText.hasUppercase(text))
        }
        XCTAssertTrue(ASCIIText.isHex(""))
        XCTAssertTrue(ASCIIText.isHex(String(repeating: "0aF", count: 30)))
        XCTAssertTrue(ASCIIText.isBundleIDText("com.example.app-1_x"))
    }
}
