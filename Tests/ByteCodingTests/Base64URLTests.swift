import ByteCoding
import XCTest

/// Base64url both ways: RFC 4648's test vectors, the strict rules JWT segments need, and the
/// lenient reading of `HTTP2-Settings`.
final class Base64URLTests: XCTestCase {
    func testRFC4648VectorsBothWays() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64URL.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64URL.decode(encoded), Array(plain.utf8), encoded)
        }
    }

    func testURLAlphabet() {
        XCTAssertEqual(Base64URL.encode([0xfb, 0xff, 0xbf]), "-_-_")
        XCTAssertEqual(Base64URL.decode("-_-_"), [0xfb, 0xff, 0xbf])
    }

    func testEveryByteRoundTrips() {
        let bytes = (0...255).map { UInt8($0) }
        for length in 0...bytes.count {
            XCTAssertEqual(Base64URL.decode(Base64URL.encode(bytes[0..<length])), Array(bytes[0..<length]))
        }
    }

    func testStrictRefusesPaddingOtherAlphabetLoneCharacterAndLeftoverBits() {
        for text in ["Zg==", "Zm8=", "+/+/", "a b", "Z", "Zm9vY", "Zh", "Zm9", "é"] {
            XCTAssertNil(Base64URL.decode(text), text)
        }
    }

    func testLenientReadsHTTP2SettingsSpellings() {
        XCTAssertEqual(
            Base64URL.decode("AAMAAABkAAQAoAAAAAIAAAAA", lenient: true), [0, 3, 0, 0, 0, 100, 0, 4, 0, 160, 0, 0, 0, 2, 0, 0, 0, 0])
        XCTAssertEqual(Base64URL.decode("Zg==", lenient: true), Array("f".utf8))
        XCTAssertEqual(Base64URL.decode("+/+/", lenient: true), [0xfb, 0xff, 0xbf])
        XCTAssertNil(Base64URL.decode("a b", lenient: true))
    }
}
