import ByteCoding
import PushCore
import XCTest

/// Taking provider tokens apart: the forms real clients send, and each way a token is malformed.
final class ProviderTokenTests: XCTestCase {
    func testNumericIssuedAt() throws {
        let text = FakeJWT.token(issuedAt: 1_795_341_600)
        let token = try ProviderToken(parsing: text)
        XCTAssertEqual(token.keyID, FakeJWT.keyID)
        XCTAssertEqual(token.teamID, FakeJWT.teamID)
        XCTAssertEqual(token.issuedAt, 1_795_341_600)
        let dot = try XCTUnwrap(text.lastIndex(of: "."))
        XCTAssertEqual(token.signedBytes, Array(text[..<dot].utf8))
        XCTAssertEqual(token.signature, FakeJWT.signature(keyID: FakeJWT.keyID, of: token.signedBytes))
    }

    func testAPNSwiftForm() throws {
        // iat as a string, kid repeated in the claims, extra header members.
        let text = FakeJWT.token(
            header: #"{"alg":"ES256","typ":"JWT","kid":"ABC123DEFG"}"#,
            claims: #"{"iss":"DEF123GHIJ","iat":"1795341600","kid":"ABC123DEFG"}"#)
        let token = try ProviderToken(parsing: text)
        XCTAssertEqual(token.issuedAt, 1_795_341_600)
        XCTAssertEqual(token.keyID, "ABC123DEFG")
        XCTAssertEqual(try ProviderToken(parsing: FakeJWT.token(issuedAt: 7, iatAsString: true)).issuedAt, 7)
    }

    func testSubstringInput() throws {
        let header = "bearer " + FakeJWT.token(issuedAt: 5)
        XCTAssertEqual(try ProviderToken(parsing: header.dropFirst(7)).issuedAt, 5)
    }

    func testMalformedTokens() {
        let good = FakeJWT.token(issuedAt: 1_795_341_600)
        let header = #"{"alg":"ES256","kid":"K"}"#
        let claims = #"{"iss":"T","iat":1}"#
        let cases: [(String, String, ProviderTokenError)] = [
            ("empty", "", .notThreeSegments),
            ("two segments", good.split(separator: ".").prefix(2).joined(separator: "."), .notThreeSegments),
            ("four segments", good + ".AAAA", .notThreeSegments),
            ("padded header", FakeJWT.token(header: #"{"alg":"ES256","kid":"KK"}"#, claims: claims).replacingFirstDot(with: "=."), .notBase64URL(segment: 0)),
            ("padded signature", good + "==", .notBase64URL(segment: 2)),
            ("standard alphabet", good.replacingFirstDot(with: "+."), .notBase64URL(segment: 0)),
            ("space", " " + good, .notBase64URL(segment: 0)),
            ("header not JSON", FakeJWT.token(header: "alg", claims: claims), .notJSONObject(segment: 0)),
            ("header an array", FakeJWT.token(header: "[]", claims: claims), .notJSONObject(segment: 0)),
            ("claims not JSON", FakeJWT.token(header: header, claims: "{"), .notJSONObject(segment: 1)),
            ("empty claims segment", FakeJWT.token(header: header, claims: ""), .notJSONObject(segment: 1)),
            ("HS256", FakeJWT.token(header: #"{"alg":"HS256","kid":"K"}"#, claims: claims), .unsupportedAlgorithm("HS256")),
            ("alg none", FakeJWT.token(header: #"{"alg":"none","kid":"K"}"#, claims: claims), .unsupportedAlgorithm("none")),
            ("no alg", FakeJWT.token(header: #"{"kid":"K"}"#, claims: claims), .unsupportedAlgorithm(nil)),
            ("lower-case alg", FakeJWT.token(header: #"{"alg":"es256","kid":"K"}"#, claims: claims), .unsupportedAlgorithm("es256")),
            ("no kid", FakeJWT.token(header: #"{"alg":"ES256"}"#, claims: claims), .missingKeyID),
            ("numeric kid", FakeJWT.token(header: #"{"alg":"ES256","kid":1}"#, claims: claims), .missingKeyID),
            ("empty kid", FakeJWT.token(header: #"{"alg":"ES256","kid":""}"#, claims: claims), .missingKeyID),
            ("no iss", FakeJWT.token(header: header, claims: #"{"iat":1}"#), .missingIssuer),
            ("no iat", FakeJWT.token(header: header, claims: #"{"iss":"T"}"#), .badIssuedAt),
            ("iat null", FakeJWT.token(header: header, claims: #"{"iss":"T","iat":null}"#), .badIssuedAt),
            ("iat fraction", FakeJWT.token(header: header, claims: #"{"iss":"T","iat":1.5}"#), .badIssuedAt),
            ("iat exponent", FakeJWT.token(header: header, claims: #"{"iss":"T","iat":1e9}"#), .badIssuedAt),
            ("iat negative", FakeJWT.token(header: header, claims: #"{"iss":"T","iat":-1}"#), .badIssuedAt),
            ("iat words", FakeJWT.token(header: header, claims: #"{"iss":"T","iat":"soon"}"#), .badIssuedAt),
            ("iat empty string", FakeJWT.token(header: header, claims: #"{"iss":"T","iat":""}"#), .badIssuedAt),
            ("iat 19 digits", FakeJWT.token(header: header, claims: #"{"iss":"T","iat":1000000000000000000}"#), .badIssuedAt),
        ]
        for (name, text, expected) in cases {
            XCTAssertThrowsError(try ProviderToken(parsing: text), name) { error in
                XCTAssertEqual(error as? ProviderTokenError, expected, name)
                XCTAssertFalse("\(error)".isEmpty)
            }
        }
    }

    func testEmptySignatureParses() throws {
        // The signature's absence is for the check against a key to refuse, not the parser.
        XCTAssertEqual(try ProviderToken(parsing: FakeJWT.token(header: #"{"alg":"ES256","kid":"K"}"#, claims: #"{"iss":"T","iat":1}"#, signedBy: nil)).signature, [])
    }
}

private extension String {
    func replacingFirstDot(with replacement: String) -> String {
        guard let dot = firstIndex(of: ".") else { return self }
        return self[..<dot] + replacement + self[index(after: dot)...]
    }
}
