import ByteCoding
import Signatures
import XCTest

/// RS256 signing and verifying through OpenSSL: a signature made by the openssl command line, what
/// must fail, and which PEM texts load.
final class RSAKeyTests: XCTestCase {
    private let message = Array(#"eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJzYUBwLmlhbS5nc2VydmljZWFjY291bnQuY29tIn0"#.utf8)

    func testGeneratedKeyRoundTripsAndItsPEMLoadsBack() throws {
        let key = RSAPrivateKey.generate()
        let signature = key.signature(of: message)
        XCTAssertEqual(signature.count, 256, "a 2048-bit key signs in 256 bytes")
        XCTAssertTrue(key.publicKey.isValidSignature(signature, of: message))
        XCTAssertTrue(try RSAPublicKey(pem: key.pem).isValidSignature(signature, of: message))
        XCTAssertTrue(try RSAPublicKey(pem: key.publicKey.pem).isValidSignature(signature, of: message))
        XCTAssertTrue(try RSAPrivateKey(pem: key.pem).publicKey.isValidSignature(signature, of: message))
    }

    func testWrongMessageFlippedBitOtherKeyAndTruncatedSignatureFail() {
        let key = RSAPrivateKey.generate()
        let other = RSAPrivateKey.generate()
        let signature = key.signature(of: message)
        XCTAssertFalse(key.publicKey.isValidSignature(signature, of: message + [0x2e]))
        XCTAssertFalse(other.publicKey.isValidSignature(signature, of: message))
        for index in [0, signature.count / 2, signature.count - 1] {
            var flipped = signature
            flipped[index] ^= 0x01
            XCTAssertFalse(key.publicKey.isValidSignature(flipped, of: message), "bit at \(index)")
        }
        XCTAssertFalse(key.publicKey.isValidSignature(Array(signature.dropLast()), of: message))
        XCTAssertFalse(key.publicKey.isValidSignature(signature + [0], of: message))
        XCTAssertFalse(key.publicKey.isValidSignature([], of: message))
    }

    func testOpenSSLCommandLineSignatureVerifiesFromPrivateKeyPublicKeyAndCertificate() throws {
        let hello = Array("hello".utf8)
        let cliSignature = try XCTUnwrap(Base64URL.decode(KeyFixtures.helloRS256SignatureBase64, lenient: true))
        for pem in [KeyFixtures.rsaPrivateKey, KeyFixtures.rsaPublicKey, KeyFixtures.rsaCertificate] {
            let key = try RSAPublicKey(pem: pem)
            XCTAssertTrue(key.isValidSignature(cliSignature, of: hello), pem.prefix(30).description)
            XCTAssertFalse(key.isValidSignature(cliSignature, of: Array("hellO".utf8)))
        }
        let signer = try RSAPrivateKey(pem: KeyFixtures.rsaPrivateKey)
        XCTAssertEqual(signer.signature(of: hello), cliSignature, "PKCS#1 v1.5 signatures are deterministic")
    }

    func testKeysThatAreNotRSAOrNotPEMAreRefused() {
        let cases: [(String, String, RSAKeyError)] = [
            ("P-256 private", KeyFixtures.p256PrivateKey, .notRSA),
            ("P-256 public", KeyFixtures.p256PublicKey, .notRSA),
            ("Ed25519", KeyFixtures.ed25519PrivateKey, .notRSA),
            ("not PEM", "MIICdwIBADANBgkqhkiG9w0BAQEFAASC", .notPEM),
            ("empty", "", .notPEM),
            ("damaged", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", .unreadable),
        ]
        for (name, pem, expected) in cases {
            XCTAssertThrowsError(try RSAPublicKey(pem: pem), name) { XCTAssertEqual($0 as? RSAKeyError, expected, name) }
        }
        XCTAssertThrowsError(try RSAPrivateKey(pem: KeyFixtures.rsaPublicKey)) { XCTAssertEqual($0 as? RSAKeyError, .notPrivate) }
        XCTAssertThrowsError(try RSAPrivateKey(pem: KeyFixtures.rsaCertificate)) { XCTAssertEqual($0 as? RSAKeyError, .notPrivate) }
    }
}
