import ByteCoding
import PushCore
import XCTest

/// The JWT-bearer assertion's checks, table-driven: each row a header, claims and signer, and the
/// error Google's token endpoint would give (nil: accepted). Signatures are a stand-in tied to the
/// account and the signed bytes, so that the rules are tested without cryptography.
final class ServiceAccountAssertionTests: XCTestCase {
    static let email = "sender@demo-project.iam.gserviceaccount.com"
    static let now: Int64 = 1_800_000_000
    static let ownURL = "http://127.0.0.1:9499/token"
    static let audiences = ServiceAccountAssertion.googleAudiences.union([ownURL])

    static func signature(by account: String, of signedBytes: [UInt8]) -> [UInt8] {
        Array("rs256 by \(account):".utf8) + signedBytes.suffix(16)
    }

    static func assertion(header: String = #"{"alg":"RS256","typ":"JWT","kid":"k1"}"#, claims: String, signedBy: String = email) -> String {
        let signed = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return signed + "." + Base64URL.encode(signature(by: signedBy, of: Array(signed.utf8)))
    }

    static func claims(
        iss: String = email, aud: String = "https://oauth2.googleapis.com/token",
        scope: String = OAuthScope.cloudPlatform, iat: String = "\(now)", exp: String = "\(now + 3600)"
    ) -> String {
        #"{"iss":"\#(iss)","scope":"\#(scope)","aud":"\#(aud)","iat":\#(iat),"exp":\#(exp)}"#
    }

    static let account = ServiceAccount(clientEmail: email) { signed, signature in
        signature == ServiceAccountAssertionTests.signature(by: email, of: signed)
    }

    func check(_ assertion: String, accounts: [ServiceAccount] = [account]) -> TokenGrantError? {
        let byEmail = Dictionary(uniqueKeysWithValues: accounts.map { ($0.clientEmail, $0) })
        do {
            _ = try ServiceAccountAssertion(checking: assertion, accounts: byEmail, audiences: Self.audiences, now: Self.now)
            return nil
        } catch {
            return error
        }
    }

    func testTable() {
        let now = Self.now
        let rows: [(String, String, TokenGrantError?)] = [
            ("what Python sends", Self.assertion(claims: Self.claims()), nil),
            ("Node's header (no kid, no typ)", Self.assertion(header: #"{"alg":"RS256"}"#, claims: Self.claims()), nil),
            ("older Google audience", Self.assertion(claims: Self.claims(aud: "https://www.googleapis.com/oauth2/v4/token")), nil),
            ("Go: aud is the token_uri", Self.assertion(claims: Self.claims(aud: Self.ownURL)), nil),
            ("firebase.messaging scope", Self.assertion(claims: Self.claims(scope: OAuthScope.firebaseMessaging)), nil),
            ("several scopes", Self.assertion(claims: Self.claims(scope: "\(OAuthScope.firebaseMessaging) https://www.googleapis.com/auth/userinfo.email")), nil),
            ("a scope without messaging is still granted", Self.assertion(claims: Self.claims(scope: "https://www.googleapis.com/auth/datastore")), nil),
            ("lifetime exactly an hour", Self.assertion(claims: Self.claims(iat: "\(now - 10)", exp: "\(now + 3590)")), nil),
            ("iat a little ahead (clock skew)", Self.assertion(claims: Self.claims(iat: "\(now + 300)", exp: "\(now + 3900)")), nil),
            ("two segments", "a.b", .invalidJWT("the assertion must be three base64url segments separated by dots.")),
            ("header not base64url", "a+b." + Base64URL.encode(Array("{}".utf8)) + ".AA", .invalidJWT("segment 1 of the assertion is not unpadded base64url.")),
            ("claims not JSON", Self.assertion(claims: "nope"), .invalidJWT("segment 2 of the assertion is not a JSON object.")),
            ("alg HS256", Self.assertion(header: #"{"alg":"HS256"}"#, claims: Self.claims()), .invalidSignature),
            ("alg none", Self.assertion(header: #"{"alg":"none"}"#, claims: Self.claims()), .invalidSignature),
            ("no iss", Self.assertion(claims: #"{"scope":"x","aud":"y","iat":1,"exp":2}"#), .invalidJWT("the iss claim (the service account's email) is missing.")),
            ("unknown account", Self.assertion(claims: Self.claims(iss: "other@p.iam.gserviceaccount.com"), signedBy: "other@p.iam.gserviceaccount.com"), .accountNotFound),
            ("signed by another key", Self.assertion(claims: Self.claims(), signedBy: "mallory"), .invalidSignature),
            ("wrong audience", Self.assertion(claims: Self.claims(aud: "https://example.com/token")), .badAudience("https://example.com/token")),
            ("lifetime over an hour", Self.assertion(claims: Self.claims(exp: "\(now + 3601)")), .badTimeframe),
            ("expired", Self.assertion(claims: Self.claims(iat: "\(now - 3600)", exp: "\(now)")), .badTimeframe),
            ("iat far ahead", Self.assertion(claims: Self.claims(iat: "\(now + 301)", exp: "\(now + 3000)")), .badTimeframe),
            ("exp before iat", Self.assertion(claims: Self.claims(iat: "\(now)", exp: "\(now - 1)")), .badTimeframe),
            ("iat a string", Self.assertion(claims: Self.claims(iat: "\"\(now)\"")), .badTimeframe),
            ("iat a fraction", Self.assertion(claims: Self.claims(iat: "\(now).5")), .badTimeframe),
            ("no scope", Self.assertion(claims: #"{"iss":"\#(Self.email)","aud":"https://oauth2.googleapis.com/token","iat":\#(now),"exp":\#(now + 60)}"#), .missingScope),
            ("blank scope", Self.assertion(claims: Self.claims(scope: "  ")), .missingScope),
            ("not a Google scope", Self.assertion(claims: Self.claims(scope: "email")), .invalidScope),
        ]
        for (name, assertion, expected) in rows {
            XCTAssertEqual(check(assertion), expected, name)
        }
    }

    func testWithoutKnownAccountsNoSignatureOrAccountIsChecked() {
        XCTAssertNil(check(Self.assertion(claims: Self.claims(iss: "anyone@x"), signedBy: "mallory"), accounts: []))
        XCTAssertEqual(check(Self.assertion(claims: Self.claims(aud: "https://example.com")), accounts: []), .badAudience("https://example.com"))
    }

    func testParsedClaims() throws {
        let assertion = try ServiceAccountAssertion(
            checking: Self.assertion(claims: Self.claims(scope: "\(OAuthScope.cloudPlatform)  \(OAuthScope.firebaseMessaging)")),
            accounts: [Self.email: Self.account], audiences: Self.audiences, now: Self.now)
        XCTAssertEqual(assertion.issuer, Self.email)
        XCTAssertEqual(assertion.scopes, [OAuthScope.cloudPlatform, OAuthScope.firebaseMessaging])
        XCTAssertEqual(assertion.issuedAt, Self.now)
        XCTAssertEqual(assertion.expiresAt, Self.now + 3600)
    }

    func testErrorBodiesAreGoogles() {
        XCTAssertEqual(
            String(decoding: TokenGrantError.invalidSignature.jsonBytes, as: UTF8.self),
            #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#)
        XCTAssertEqual(TokenGrantError.unsupportedGrantType("password").description, "Invalid grant_type: password")
        XCTAssertEqual(TokenGrantError.unsupportedGrantType("password").code, "unsupported_grant_type")
    }
}
