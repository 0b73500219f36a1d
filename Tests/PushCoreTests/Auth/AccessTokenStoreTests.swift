import PushCore
import XCTest

/// Issued access tokens: their shape, expiry on the clock given, scope, and the endpoint that issues them.
final class AccessTokenStoreTests: XCTestCase {
    let now: Int64 = 1_800_000_000_000

    func testIssuedTokenIsGoogleShapedUniqueAndValidUntilItsLastMillisecond() {
        let store = AccessTokenStore(lifetimeSeconds: 3600)
        let issued = store.issue(scopes: [OAuthScope.cloudPlatform], now: now)
        XCTAssertTrue(issued.token.hasPrefix("ya29."))
        XCTAssertEqual(issued.expiresInSeconds, 3599)
        XCTAssertNotEqual(store.issue(scopes: [OAuthScope.cloudPlatform], now: now).token, issued.token)
        XCTAssertEqual(store.check(issued.token, now: now), .valid)
        XCTAssertEqual(store.check(issued.token, now: now + 3_599_999), .valid)
        XCTAssertEqual(store.check(issued.token, now: now + 3_600_000), .expired)
        XCTAssertEqual(store.check(issued.token, now: now + 3_600_000 + AccessTokenStore.retentionAfterExpiryMilliseconds), .unknown)
    }

    func testUnknownAndUnderScopedTokens() {
        let store = AccessTokenStore(lifetimeSeconds: 60)
        XCTAssertEqual(store.check("ya29.never-issued", now: now), .unknown)
        XCTAssertEqual(store.check("", now: now), .unknown)
        let datastore = store.issue(scopes: ["https://www.googleapis.com/auth/datastore"], now: now)
        XCTAssertEqual(store.check(datastore.token, now: now), .insufficientScope)
        XCTAssertEqual(store.check(datastore.token, now: now + 60_000), .expired, "expiry is told before scope")
        let messaging = store.issue(scopes: ["https://www.googleapis.com/auth/userinfo.email", OAuthScope.firebaseMessaging], now: now)
        XCTAssertEqual(store.check(messaging.token, now: now), .valid)
    }

    func testShortLifetime() {
        let store = AccessTokenStore(lifetimeSeconds: 1)
        let issued = store.issue(scopes: [OAuthScope.cloudPlatform], now: now)
        XCTAssertEqual(issued.expiresInSeconds, 0)
        XCTAssertEqual(store.check(issued.token, now: now + 999), .valid)
        XCTAssertEqual(store.check(issued.token, now: now + 1000), .expired)
    }

    func testTokensLongExpiredAreSweptAsTheTableGrows() {
        let store = AccessTokenStore(lifetimeSeconds: 1)
        for _ in 0..<1000 { _ = store.issue(scopes: [], now: now) }
        let later = now + AccessTokenStore.retentionAfterExpiryMilliseconds + 1000
        for _ in 0..<100 { _ = store.issue(scopes: [], now: later) }
        XCTAssertLessThanOrEqual(store.count, 100, "the 1000 tokens a day past expiry are gone")
    }

    func testEndpointGrantsOnlyTheJWTBearerGrant() {
        let endpoint = TokenEndpoint(accounts: [], store: AccessTokenStore())
        let nowSeconds = now / 1000
        let assertion = ServiceAccountAssertionTests.assertion(
            claims: ServiceAccountAssertionTests.claims(iat: "\(nowSeconds)", exp: "\(nowSeconds + 3600)"))
        XCTAssertEqual(endpoint.grant(grantType: "password", assertion: assertion, ownURLs: [], now: now), .failure(.unsupportedGrantType("password")))
        XCTAssertEqual(endpoint.grant(grantType: nil, assertion: assertion, ownURLs: [], now: now), .failure(.unsupportedGrantType(nil)))
        XCTAssertEqual(endpoint.grant(grantType: TokenEndpoint.jwtBearerGrantType, assertion: nil, ownURLs: [], now: now), .failure(.missingAssertion))
        guard case .success(let issued) = endpoint.grant(grantType: TokenEndpoint.jwtBearerGrantType, assertion: assertion, ownURLs: [], now: now) else {
            return XCTFail("the grant was refused")
        }
        XCTAssertEqual(endpoint.store.check(issued.token, now: now), .valid)
        // The emulator's clock plays no part: an assertion stamped a day ahead of real time is refused.
        let ahead = ServiceAccountAssertionTests.assertion(
            claims: ServiceAccountAssertionTests.claims(iat: "\(nowSeconds + 86_400)", exp: "\(nowSeconds + 86_400 + 3600)"))
        XCTAssertEqual(endpoint.grant(grantType: TokenEndpoint.jwtBearerGrantType, assertion: ahead, ownURLs: [], now: now), .failure(.badTimeframe))
    }
}
