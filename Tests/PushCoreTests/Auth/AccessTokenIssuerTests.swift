import ByteCoding
import PushCore
import XCTest

/// Issued access tokens: their shape, expiry on the clock given, scope, that nothing is kept per
/// token (a token is checked by its HMAC tag alone, under the issuer's key), and the endpoint that
/// issues them. SignaturesTests compares the HMAC with OpenSSL's.
final class AccessTokenIssuerTests: XCTestCase {
    let now: Int64 = 1_800_000_000_000

    func issuer(lifetimeSeconds: Int64 = 3600, key: UInt8 = 1) -> AccessTokenIssuer {
        AccessTokenIssuer(lifetimeSeconds: lifetimeSeconds, key: [UInt8](repeating: key, count: 32))
    }

    func testIssuedTokenIsGoogleShapedUniqueAndValidUntilItsLastMillisecond() {
        let issuer = issuer()
        let issued = issuer.issue(scopes: [OAuthScope.cloudPlatform], now: now)
        XCTAssertTrue(issued.token.hasPrefix("ya29."))
        XCTAssertEqual(issued.token.count, 85)
        XCTAssertTrue(issued.token.dropFirst(5).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, issued.token)
        XCTAssertEqual(issued.expiresInSeconds, 3599)
        XCTAssertNotEqual(issuer.issue(scopes: [OAuthScope.cloudPlatform], now: now).token, issued.token)
        XCTAssertEqual(issuer.check(issued.token, now: now), .valid)
        XCTAssertEqual(issuer.check(issued.token, now: now + 3_599_999), .valid)
        XCTAssertEqual(issuer.check(issued.token, now: now + 3_600_000), .expired)
        // Nothing is forgotten: a token expired a year ago is still told apart from an unknown one.
        XCTAssertEqual(issuer.check(issued.token, now: now + 365 * 86_400_000), .expired)
    }

    func testAValidTokenStaysValidWhateverIsIssuedAfterIt() {
        let issuer = issuer()
        let first = issuer.issue(scopes: [OAuthScope.firebaseMessaging], now: now)
        for _ in 0..<20_000 { _ = issuer.issue(scopes: [OAuthScope.firebaseMessaging], now: now) }
        XCTAssertEqual(issuer.check(first.token, now: now + 1000), .valid)
    }

    func testTokensCheckedAgainAfterTheRecentOnesMovedOnGiveTheSameAnswers() {
        let issuer = issuer(lifetimeSeconds: 60)
        let tokens = (0..<(3 * 16)).map { issuer.issue(scopes: $0 % 2 == 0 ? [OAuthScope.cloudPlatform] : [], now: now).token }
        for _ in 0..<2 {
            for (index, token) in tokens.enumerated() {
                XCTAssertEqual(issuer.check(token, now: now), index % 2 == 0 ? .valid : .insufficientScope)
                XCTAssertEqual(issuer.check(token, now: now + 60_000), .expired)
            }
        }
        // A remembered token's altered copy is not taken for it.
        let last = tokens[tokens.count - 2]
        XCTAssertEqual(issuer.check(last, now: now), .valid)
        XCTAssertEqual(issuer.check(String(last.dropLast()) + (last.last == "A" ? "B" : "A"), now: now), .unknown)
    }

    func testUnknownAndUnderScopedTokens() {
        let issuer = issuer(lifetimeSeconds: 60)
        XCTAssertEqual(issuer.check("ya29.never-issued", now: now), .unknown)
        XCTAssertEqual(issuer.check("", now: now), .unknown)
        let datastore = issuer.issue(scopes: ["https://www.googleapis.com/auth/datastore"], now: now)
        XCTAssertEqual(issuer.check(datastore.token, now: now), .insufficientScope)
        XCTAssertEqual(issuer.check(datastore.token, now: now + 60_000), .expired, "expiry is told before scope")
        let messaging = issuer.issue(scopes: ["https://www.googleapis.com/auth/userinfo.email", OAuthScope.firebaseMessaging], now: now)
        XCTAssertEqual(issuer.check(messaging.token, now: now), .valid)
        XCTAssertEqual(issuer.check(issuer.issue(scopes: [], now: now).token, now: now), .insufficientScope)
    }

    func testATokenOfAnotherKeyIsUnknown() {
        let issued = issuer(key: 1).issue(scopes: [OAuthScope.cloudPlatform], now: now)
        // Another run of the emulator: another key, random each time.
        XCTAssertEqual(issuer(key: 2).check(issued.token, now: now), .unknown)
        XCTAssertEqual(issuer(key: 2).check(issued.token, now: now + 7_200_000), .unknown, "not even expired")
        XCTAssertEqual(AccessTokenIssuer().check(issued.token, now: now), .unknown)
        let random = AccessTokenIssuer()
        XCTAssertEqual(random.check(random.issue(scopes: [OAuthScope.cloudPlatform], now: now).token, now: now), .valid)
    }

    func testEveryAlteredByteMakesTheTokenUnknown() {
        let issuer = issuer()
        let issued = issuer.issue(scopes: ["https://www.googleapis.com/auth/datastore"], now: now)
        let bytes = Base64URL.decode(issued.token.dropFirst(5))!
        XCTAssertEqual(bytes.count, 60)
        for index in bytes.indices {
            var altered = bytes
            altered[index] ^= 1
            XCTAssertEqual(issuer.check("ya29." + Base64URL.encode(altered), now: now), .unknown, "byte \(index)")
        }
        // A scope granted or a later expiry written in, the tag left as it was.
        var granted = bytes
        granted[1] = 1
        XCTAssertEqual(issuer.check("ya29." + Base64URL.encode(granted), now: now), .unknown)
        var extended = bytes
        extended[2] = 0x7f
        XCTAssertEqual(issuer.check("ya29." + Base64URL.encode(extended), now: now + 7_200_000), .unknown)
        // Cut short, made longer, another prefix, padding.
        for text in [String(issued.token.dropLast()), issued.token + "A", "ya30." + issued.token.dropFirst(5),
                     String(issued.token.dropLast(4)) + "===="] {
            XCTAssertEqual(issuer.check(text, now: now), .unknown, text)
        }
    }

    func testShortLifetime() {
        let issuer = issuer(lifetimeSeconds: 1)
        let issued = issuer.issue(scopes: [OAuthScope.cloudPlatform], now: now)
        XCTAssertEqual(issued.expiresInSeconds, 0)
        XCTAssertEqual(issuer.check(issued.token, now: now + 999), .valid)
        XCTAssertEqual(issuer.check(issued.token, now: now + 1000), .expired)
    }

    func testEndpointGrantsOnlyTheJWTBearerGrant() {
        let endpoint = TokenEndpoint(accounts: [], issuer: issuer())
        let nowSeconds = now / 1000
        let assertion = ServiceAccountAssertionTests.assertion(
            claims: ServiceAccountAssertionTests.claims(iat: "\(nowSeconds)", exp: "\(nowSeconds + 3600)"))
        XCTAssertEqual(endpoint.grant(grantType: "password", assertion: assertion, ownURLs: [], now: now), .failure(.unsupportedGrantType("password")))
        XCTAssertEqual(endpoint.grant(grantType: nil, assertion: assertion, ownURLs: [], now: now), .failure(.unsupportedGrantType(nil)))
        XCTAssertEqual(endpoint.grant(grantType: TokenEndpoint.jwtBearerGrantType, assertion: nil, ownURLs: [], now: now), .failure(.missingAssertion))
        guard case .success(let issued) = endpoint.grant(grantType: TokenEndpoint.jwtBearerGrantType, assertion: assertion, ownURLs: [], now: now) else {
            return XCTFail("the grant was refused")
        }
        XCTAssertEqual(endpoint.issuer.check(issued.token, now: now), .valid)
        // The emulator's clock plays no part: an assertion stamped a day ahead of real time is refused.
        let ahead = ServiceAccountAssertionTests.assertion(
            claims: ServiceAccountAssertionTests.claims(iat: "\(nowSeconds + 86_400)", exp: "\(nowSeconds + 86_400 + 3600)"))
        XCTAssertEqual(endpoint.grant(grantType: TokenEndpoint.jwtBearerGrantType, assertion: ahead, ownURLs: [], now: now), .failure(.badTimeframe))
    }
}
