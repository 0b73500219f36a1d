import ByteCoding
import COpenSSL
@testable import PushCore
import XCTest

/// PushCore's SHA-256 and HMAC-SHA256 (behind the access tokens, in pure Swift) against RFC 4231's
/// test vectors and against OpenSSL's for every message length across the padding's edges and
/// keys shorter and longer than a block.
final class HMACSHA256Tests: XCTestCase {
    private func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    private func openSSLDigest(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        XCTAssertEqual(EVP_Digest(message, message.count, &digest, &length, EVP_sha256(), nil), 1)
        return digest
    }

    private func openSSLTag(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        XCTAssertNotNil(HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &tag, &length))
        return tag
    }

    /// RFC 4231 §4.2–4.7 (test case 5, a truncated tag, is left out).
    func testRFC4231Vectors() {
        let cases: [(key: [UInt8], message: [UInt8], tag: String)] = [
            ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            (hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            ([UInt8](repeating: 0xaa, count: 131),
             Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for (index, test) in cases.enumerated() {
            let key = HMACSHA256(key: test.key)
            XCTAssertEqual(key.tag(of: test.message), hex(test.tag), "case \(index + 2)")
            // The key's prepared state is not used up by a tag.
            XCTAssertEqual(key.tag(of: test.message), hex(test.tag), "case \(index + 2), again")
        }
    }

    func testDigestsAgreeWithOpenSSLForEveryLengthTo300() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertEqual(SHA256.digest(message), openSSLDigest(message), "length \(length)")
        }
        // Given in pieces of every size: the same digest.
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for piece in 1...70 {
            var hash = SHA256()
            for start in stride(from: 0, to: message.count, by: piece) { hash.update(Array(message[start..<min(start + piece, message.count)])) }
            XCTAssertEqual(hash.finish(), openSSLDigest(message), "pieces of \(piece)")
        }
    }

    func testTagsAgreeWithOpenSSLForKeysAndMessagesAcrossTheBlockEdges() {
        var generator = SystemRandomNumberGenerator()
        for keyLength in [0, 1, 31, 32, 63, 64, 65, 128, 200] {
            let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let hmac = HMACSHA256(key: key)
            for length in [0, 1, 28, 55, 56, 63, 64, 65, 119, 120, 200] {
                let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                XCTAssertEqual(hmac.tag(of: message), openSSLTag(key: key, message: message), "key \(keyLength), message \(length)")
            }
        }
    }

    /// An access token's tag is the HMAC of its first 28 bytes under the issuer's key, as OpenSSL makes it.
    func testAnAccessTokensTagIsOpenSSLsHMAC() {
        let key = (0..<32).map { UInt8($0) }
        let token = AccessTokenIssuer(lifetimeSeconds: 3600, key: key).issue(scopes: [OAuthScope.cloudPlatform], now: 1_800_000_000_000).token
        let bytes = Base64URL.decode(token.dropFirst(5))!
        XCTAssertEqual(Array(bytes[28...]), openSSLTag(key: key, message: Array(bytes[..<28])))
    }
}
