import ByteCoding
import Signatures
import XCTest

/// ES256 signing and verifying through OpenSSL: both signature forms, what must fail, and which
/// keys load.
final class ES256KeyTests: XCTestCase {
    private let message = Array(#"eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJURUFNIn0"#.utf8)

    func testRoundTripInBothFormats() throws {
        let key = ES256PrivateKey.generate()
        for format in ES256SignatureFormat.allCases {
            let signature = key.signature(of: message, format: format)
            XCTAssertTrue(key.publicKey.isValidSignature(signature, of: message), "\(format)")
        }
        XCTAssertEqual(key.signature(of: message, format: .raw).count, 64)
        XCTAssertEqual(key.signature(of: message, format: .der).first, 0x30)
    }

    func testWrongMessageFlippedBitAndOtherKeyFail() {
        let key = ES256PrivateKey.generate()
        let other = ES256PrivateKey.generate()
        for format in ES256SignatureFormat.allCases {
            let signature = key.signature(of: message, format: format)
            XCTAssertFalse(key.publicKey.isValidSignature(signature, of: message + [0x2e]), "\(format)")
            XCTAssertFalse(other.publicKey.isValidSignature(signature, of: message), "\(format)")
            for index in [0, signature.count / 2, signature.count - 1] {
                var flipped = signature
                flipped[index] ^= 0x01
                XCTAssertFalse(key.publicKey.isValidSignature(flipped, of: message), "\(format) bit at \(index)")
            }
        }
    }

    func testRawSignatureOfWrongLengthOrEmptyFails() {
        let key = ES256PrivateKey.generate()
        let raw = key.signature(of: message, format: .raw)
        XCTAssertFalse(key.publicKey.isValidSignature(Array(raw.dropLast()), of: message))
        XCTAssertFalse(key.publicKey.isValidSignature(raw + [0], of: message))
        XCTAssertFalse(key.publicKey.isValidSignature([0] + raw, of: message))
        XCTAssertFalse(key.publicKey.isValidSignature([], of: message))
        XCTAssertFalse(key.publicKey.isValidSignature([UInt8](repeating: 0, count: 64), of: message))
    }

    func testDERWithTrailingBytesFails() {
        let key = ES256PrivateKey.generate()
        let der = key.signature(of: message, format: .der)
        XCTAssertFalse(key.publicKey.isValidSignature(der + [0], of: message))
    }

    func testOpenSSLCommandLineKeyAndSignature() throws {
        let privateKey = try ES256PrivateKey(pem: KeyFixtures.p256PrivateKey)
        let publicKey = try ES256PublicKey(pem: KeyFixtures.p256PublicKey)
        let fromPrivate = try ES256PublicKey(pem: KeyFixtures.p256PrivateKey)
        let hello = Array("hello".utf8)
        let cliSignature = try XCTUnwrap(Base64URL.decode(KeyFixtures.helloSignatureDERBase64, lenient: true))
        XCTAssertTrue(publicKey.isValidSignature(cliSignature, of: hello))
        XCTAssertTrue(fromPrivate.isValidSignature(cliSignature, of: hello))
        XCTAssertTrue(privateKey.publicKey.isValidSignature(cliSignature, of: hello))
        XCTAssertFalse(publicKey.isValidSignature(cliSignature, of: Array("hellO".utf8)))
        let raw = privateKey.signature(of: hello, format: .raw)
        XCTAssertTrue(publicKey.isValidSignature(raw, of: hello))
        XCTAssertEqual(fromPrivate.pem, publicKey.pem)
        let sec1 = try ES256PrivateKey(pem: KeyFixtures.p256SEC1PrivateKey)
        XCTAssertEqual(sec1.publicKey.pem, publicKey.pem)
        XCTAssertEqual(publicKey.pem.trimmingCharacters(in: .whitespacesAndNewlines), KeyFixtures.p256PublicKey)
    }

    func testPEMRoundTrip() throws {
        let key = ES256PrivateKey.generate()
        XCTAssertTrue(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try ES256PrivateKey(pem: key.pem)
        let signature = reloaded.signature(of: message, format: .der)
        XCTAssertTrue(try ES256PublicKey(pem: key.publicKey.pem).isValidSignature(signature, of: message))
    }

    func testOtherKeysAreRefused() {
        let cases: [(String, String, ES256KeyError)] = [
            ("P-384 private", KeyFixtures.p384PrivateKey, .notP256),
            ("P-384 public", KeyFixtures.p384PublicKey, .notP256),
            ("RSA", KeyFixtures.rsaPrivateKey, .notP256),
            ("Ed25519", KeyFixtures.ed25519PrivateKey, .notP256),
            ("not PEM", "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg", .notPEM),
            ("empty", "", .notPEM),
            ("encrypted", KeyFixtures.p256EncryptedPrivateKey, .unreadable),
            ("damaged", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", .unreadable),
        ]
        for (name, pem, expected) in cases {
            XCTAssertThrowsError(try ES256PublicKey(pem: pem), name) { XCTAssertEqual($0 as? ES256KeyError, expected, name) }
            XCTAssertThrowsError(try ES256PrivateKey(pem: pem), name) { XCTAssertEqual($0 as? ES256KeyError, expected, name) }
        }
        XCTAssertThrowsError(try ES256PrivateKey(pem: KeyFixtures.p256PublicKey)) {
            XCTAssertEqual($0 as? ES256KeyError, .notPrivate)
        }
        XCTAssertEqual(ES256KeyError.notP256.description, "not a P-256 EC key (ES256 needs the prime256v1 curve)")
    }

    func testOneKeyVerifiesFromManyThreads() {
        let key = ES256PrivateKey.generate()
        let publicKey = key.publicKey
        let message = message
        let signatures = (0..<8).map { key.signature(of: message + [UInt8($0)], format: $0 % 2 == 0 ? .raw : .der) }
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let which = index % signatures.count
            XCTAssertTrue(publicKey.isValidSignature(signatures[which], of: message + [UInt8(which)]))
            XCTAssertFalse(publicKey.isValidSignature(signatures[which], of: message))
        }
    }
}
