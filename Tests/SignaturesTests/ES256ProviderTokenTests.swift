import ByteCoding
import PushCore
import Signatures
import XCTest

/// Real ES256 JWTs, signed both ways clients sign them, through the provider-token rules with a
/// key whose check is OpenSSL's: the parts the provider API joins, joined.
final class ES256ProviderTokenTests: XCTestCase {
    private let keyID = "ABC123DEFG"
    private let teamID = "DEF123GHIJ"
    private let now = Timestamp(secondsSinceEpoch: 1_795_341_600)

    private func jwt(signedWith key: ES256PrivateKey, format: ES256SignatureFormat, claims: String? = nil) -> String {
        let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
        let claims = claims ?? #"{"iss":"\#(teamID)","iat":\#(now.secondsSinceEpoch)}"#
        let signed = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return signed + "." + Base64URL.encode(key.signature(of: Array(signed.utf8), format: format))
    }

    private func keys(_ publicKey: ES256PublicKey) -> [String: ProviderKey] {
        [keyID: ProviderKey(keyID: keyID, teamID: teamID) { publicKey.isValidSignature($1, of: $0) }]
    }

    func testRawAndDERSignedTokensAreAccepted() throws {
        let key = ES256PrivateKey.generate()
        let keys = keys(try ES256PublicKey(pem: key.pem))
        for format in ES256SignatureFormat.allCases {
            var session = ProviderTokenSession()
            XCTAssertNil(session.check(authorization: "bearer " + jwt(signedWith: key, format: format), mode: .strict, keys: keys, now: now), "\(format)")
        }
        // APNSwift's form: iat as a string, kid repeated in the claims.
        let apnsSwift = jwt(signedWith: key, format: .raw, claims: #"{"iss":"\#(teamID)","iat":"\#(now.secondsSinceEpoch)","kid":"\#(keyID)"}"#)
        var session = ProviderTokenSession()
        XCTAssertNil(session.check(authorization: "bearer " + apnsSwift, mode: .strict, keys: keys, now: now))
    }

    func testAnotherKeysSignatureIsInvalid() {
        let keys = keys(ES256PrivateKey.generate().publicKey)
        for format in ES256SignatureFormat.allCases {
            var session = ProviderTokenSession()
            let token = jwt(signedWith: ES256PrivateKey.generate(), format: format)
            XCTAssertEqual(
                session.check(authorization: "bearer " + token, mode: .strict, keys: keys, now: now), .invalidProviderToken, "\(format)")
        }
    }

    func testClaimsChangedAfterSigningAreInvalid() {
        let key = ES256PrivateKey.generate()
        let token = jwt(signedWith: key, format: .raw)
        let parts = token.split(separator: ".")
        let otherClaims = Base64URL.encode(Array(#"{"iss":"\#(teamID)","iat":\#(now.secondsSinceEpoch + 1)}"#.utf8))
        var session = ProviderTokenSession()
        XCTAssertEqual(
            session.check(authorization: "bearer \(parts[0]).\(otherClaims).\(parts[2])", mode: .strict, keys: keys(key.publicKey), now: now),
            .invalidProviderToken)
    }

    /// Tokens made by other implementations with `KeyFixtures.p256PrivateKey`: PyJWT 2.15 (raw
    /// R‖S, as Go and Python clients sign), and Python's cryptography signing DER with `iat` as a
    /// string and `kid` in the claims (as Pushy signs, with APNSwift's claims).
    func testTokensMadeByOtherImplementations() throws {
        let keys = keys(try ES256PublicKey(pem: KeyFixtures.p256PublicKey))
        let pyJWT = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkciLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzk1MzQxNjAwfQ."
            + "t0JSAYczqBeS7Px_0grTJ3TTIrFi1tgR_FN1MgLEppj8-z_C5gCoeDk3nkiMyOZcLwVoo1CKHk_DlU218AoOvA"
        let der = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoiMTc5NTM0MTYwMCIsImtpZCI6IkFCQzEyM0RFRkcifQ."
            + "MEUCIQCojcG21pWepv3oiAgNUMMwRvTnHG_FJ_DnndvoBmAg9wIgBkgiWE3X9S8TPFFfnymLzwRZXXYcvsngR6lu9n7WC44"
        for token in [pyJWT, der] {
            var session = ProviderTokenSession()
            XCTAssertNil(session.check(authorization: "bearer " + token, mode: .strict, keys: keys, now: now), token)
        }
    }
}
