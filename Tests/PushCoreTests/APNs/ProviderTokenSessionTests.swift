import PushCore
import XCTest

/// The per-connection provider-token rules: each reason and the order they come in, both `iat`
/// forms, the cache, one team per connection, and the edges of the one-hour and 20-minute rules.
final class ProviderTokenSessionTests: XCTestCase {
    private let now = Timestamp(secondsSinceEpoch: fixedNowSeconds)
    private let otherKeyID = "XYZ987WVUT"
    private let otherTeamID = "OTHERTEAM1"

    private func keys(_ calls: VerifyCalls = VerifyCalls()) -> [String: ProviderKey] {
        [
            FakeJWT.keyID: FakeJWT.key(calls: calls),
            otherKeyID: FakeJWT.key(keyID: otherKeyID, teamID: otherTeamID, calls: calls),
        ]
    }

    private func bearer(_ token: String) -> String { "bearer " + token }

    private func check(
        _ session: inout ProviderTokenSession, _ authorization: String?, mode: APNsAuthMode = .strict,
        keys: [String: ProviderKey]? = nil, at time: Timestamp? = nil
    ) -> APNsReason? {
        session.check(authorization: authorization, mode: mode, keys: keys ?? self.keys(), now: time ?? now)
    }

    /// A fresh connection's answer to one request, in each mode.
    func testOneRequestOnAFreshConnection() {
        let fresh = FakeJWT.token(issuedAt: fixedNowSeconds)
        let cases: [(String, String?, [APNsAuthMode: APNsReason?])] = [
            ("good, numeric iat", bearer(fresh), [.off: nil, .any: nil, .strict: nil]),
            ("good, string iat", bearer(FakeJWT.token(issuedAt: fixedNowSeconds, iatAsString: true)), [.off: nil, .any: nil, .strict: nil]),
            ("scheme in capitals", "Bearer  " + fresh, [.off: nil, .any: nil, .strict: nil]),
            ("no header", nil, [.off: nil, .any: .missingProviderToken, .strict: .missingProviderToken]),
            ("empty header", "", [.off: nil, .any: .missingProviderToken, .strict: .missingProviderToken]),
            ("bearer without a token", "bearer ", [.off: nil, .any: .missingProviderToken, .strict: .missingProviderToken]),
            ("bearer alone", "bearer", [.off: nil, .any: .missingProviderToken, .strict: .missingProviderToken]),
            ("another scheme", "basic " + fresh, [.off: nil, .any: .missingProviderToken, .strict: .missingProviderToken]),
            ("no scheme", fresh, [.off: nil, .any: .missingProviderToken, .strict: .missingProviderToken]),
            ("malformed", bearer("not.a.jwt"), [.off: nil, .any: .invalidProviderToken, .strict: .invalidProviderToken]),
            ("unknown kid", bearer(FakeJWT.token(keyID: "UNKNOWNKEY", issuedAt: fixedNowSeconds)),
             [.off: nil, .any: nil, .strict: .invalidProviderToken]),
            ("iss not the key's team", bearer(FakeJWT.token(teamID: otherTeamID, issuedAt: fixedNowSeconds)),
             [.off: nil, .any: nil, .strict: .invalidProviderToken]),
            ("signed by another key", bearer(FakeJWT.token(
                header: #"{"alg":"ES256","kid":"\#(FakeJWT.keyID)"}"#, claims: #"{"iss":"\#(FakeJWT.teamID)","iat":\#(fixedNowSeconds)}"#,
                signedBy: otherKeyID)),
             [.off: nil, .any: nil, .strict: .invalidProviderToken]),
            ("no signature", bearer(FakeJWT.token(
                header: #"{"alg":"ES256","kid":"\#(FakeJWT.keyID)"}"#, claims: #"{"iss":"\#(FakeJWT.teamID)","iat":\#(fixedNowSeconds)}"#,
                signedBy: nil)),
             [.off: nil, .any: nil, .strict: .invalidProviderToken]),
            ("expired", bearer(FakeJWT.token(issuedAt: fixedNowSeconds - 3601)), [.off: nil, .any: nil, .strict: .expiredProviderToken]),
            ("expired and unknown kid", bearer(FakeJWT.token(keyID: "UNKNOWNKEY", issuedAt: fixedNowSeconds - 7200)),
             [.off: nil, .any: nil, .strict: .invalidProviderToken]),
            ("iat over an hour ahead", bearer(FakeJWT.token(issuedAt: fixedNowSeconds + 3601)),
             [.off: nil, .any: nil, .strict: .invalidProviderToken]),
        ]
        for (name, authorization, expected) in cases {
            for mode in APNsAuthMode.allCases {
                var session = ProviderTokenSession()
                XCTAssertEqual(check(&session, authorization, mode: mode), expected[mode]!, "\(name), \(mode)")
            }
        }
    }

    func testExpiryEdgeIsExactly3600Seconds() {
        let token = bearer(FakeJWT.token(issuedAt: fixedNowSeconds))
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, token))
        let edge = now.adding(seconds: 3600)
        XCTAssertNil(check(&session, token, at: edge))
        XCTAssertEqual(check(&session, token, at: Timestamp(millisecondsSinceEpoch: edge.millisecondsSinceEpoch + 1)), .expiredProviderToken)
        // A fresh connection shown the same token at the edges.
        var fresh = ProviderTokenSession()
        XCTAssertNil(check(&fresh, token, at: edge))
        var late = ProviderTokenSession()
        XCTAssertEqual(check(&late, token, at: now.adding(seconds: 3601)), .expiredProviderToken)
    }

    func testFutureEdgeIsExactly3600Seconds() {
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds + 3600))))
        var other = ProviderTokenSession()
        XCTAssertEqual(check(&other, bearer(FakeJWT.token(issuedAt: fixedNowSeconds + 3601))), .invalidProviderToken)
    }

    func testReusedTokenIsVerifiedOnce() {
        let calls = VerifyCalls()
        let keys = keys(calls)
        let token = bearer(FakeJWT.token(issuedAt: fixedNowSeconds))
        var session = ProviderTokenSession()
        for second in 0..<10 {
            XCTAssertNil(check(&session, token, keys: keys, at: now.adding(seconds: Int64(second))))
        }
        XCTAssertEqual(calls.value, 1)
        // The time rules still apply to the cached token.
        XCTAssertEqual(check(&session, token, keys: keys, at: now.adding(seconds: 3601)), .expiredProviderToken)
        XCTAssertEqual(calls.value, 1)
        // Another string is verified, and a refused one is not cached.
        let forged = bearer(FakeJWT.token(
            header: #"{"alg":"ES256","kid":"\#(FakeJWT.keyID)"}"#, claims: #"{"iss":"\#(FakeJWT.teamID)","iat":\#(fixedNowSeconds)}"#,
            signedBy: otherKeyID))
        XCTAssertEqual(check(&session, forged, keys: keys), .invalidProviderToken)
        XCTAssertEqual(check(&session, forged, keys: keys), .invalidProviderToken)
        XCTAssertEqual(calls.value, 3)
        XCTAssertNil(check(&session, token, keys: keys))
        XCTAssertEqual(calls.value, 3)
    }

    func testAnyModeDoesNotTrustATokenCachedThereInStrictMode() {
        let calls = VerifyCalls()
        let token = bearer(FakeJWT.token(keyID: "UNKNOWNKEY", issuedAt: fixedNowSeconds))
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, token, mode: .any, keys: keys(calls)))
        XCTAssertEqual(check(&session, token, mode: .strict, keys: keys(calls)), .invalidProviderToken)
    }

    func testOneTeamPerConnection() {
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds))))
        let otherTeam = bearer(FakeJWT.token(keyID: otherKeyID, teamID: otherTeamID, issuedAt: fixedNowSeconds))
        XCTAssertEqual(check(&session, otherTeam), .invalidProviderToken)
        XCTAssertEqual(check(&session, otherTeam, at: now.adding(seconds: 3000)), .invalidProviderToken)
        // The other team's token is good on a connection of its own.
        var other = ProviderTokenSession()
        XCTAssertNil(check(&other, otherTeam))
        // A token refused before any was accepted binds no team.
        var refusedFirst = ProviderTokenSession()
        XCTAssertEqual(check(&refusedFirst, bearer(FakeJWT.token(issuedAt: fixedNowSeconds - 4000))), .expiredProviderToken)
        XCTAssertNil(check(&refusedFirst, otherTeam))
    }

    func testRenewalAfterExactly20MinutesIsAccepted() {
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds))))
        let renewed = now.adding(seconds: 1200)
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: renewed.secondsSinceEpoch)), at: renewed))
        // The 20 minutes count from the renewal's acceptance now.
        let again = renewed.adding(seconds: 1199)
        XCTAssertEqual(check(&session, bearer(FakeJWT.token(issuedAt: again.secondsSinceEpoch)), at: again), .tooManyProviderTokenUpdates)
    }

    func testRenewalBefore20MinutesRefusesTheConnectionUntilThen() {
        let first = bearer(FakeJWT.token(issuedAt: fixedNowSeconds))
        let second = bearer(FakeJWT.token(issuedAt: fixedNowSeconds + 60))
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, first))
        let early = Timestamp(millisecondsSinceEpoch: now.adding(seconds: 1200).millisecondsSinceEpoch - 1)
        XCTAssertEqual(check(&session, second, at: now.adding(seconds: 60)), .tooManyProviderTokenUpdates)
        // Refused for every request now, the first token's too, until 20 minutes after it was accepted.
        XCTAssertEqual(check(&session, first, at: now.adding(seconds: 61)), .tooManyProviderTokenUpdates)
        XCTAssertEqual(check(&session, first, at: early), .tooManyProviderTokenUpdates)
        XCTAssertEqual(check(&session, second, at: early), .tooManyProviderTokenUpdates)
        // Earlier reasons still come first.
        XCTAssertEqual(check(&session, nil, at: early), .missingProviderToken)
        XCTAssertEqual(check(&session, bearer("x.y.z"), at: early), .invalidProviderToken)
        // At 20 minutes the renewal is accepted.
        XCTAssertNil(check(&session, second, at: now.adding(seconds: 1200)))
        XCTAssertNil(check(&session, second, at: now.adding(seconds: 1300)))
    }

    func testOldTokenWorksAgainWhenTheRefusalEnds() {
        let first = bearer(FakeJWT.token(issuedAt: fixedNowSeconds))
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, first))
        XCTAssertEqual(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds + 1))), .tooManyProviderTokenUpdates)
        XCTAssertNil(check(&session, first, at: now.adding(seconds: 1200)))
    }

    func testTheOldTokenStillInFlightAfterARenewalIsNotAnUpdate() {
        let first = bearer(FakeJWT.token(issuedAt: fixedNowSeconds))
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, first))
        let renewed = now.adding(seconds: 1800)
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: renewed.secondsSinceEpoch)), at: renewed))
        // A request sent with the old token before the client switched arrives just after.
        XCTAssertNil(check(&session, first, at: renewed.adding(seconds: 1)))
    }

    func testSignedAgainWithTheSameIssuedAtIsNotAnUpdate() {
        let calls = VerifyCalls()
        let keys = keys(calls)
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds)), keys: keys))
        // The same claims with iat as a string: another token string, the same iat.
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds, iatAsString: true)), keys: keys, at: now.adding(seconds: 5)))
        XCTAssertEqual(calls.value, 2)
    }

    func testExpiredRenewalIsExpiredNotTooMany() {
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds))))
        XCTAssertEqual(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds - 3601))), .expiredProviderToken)
        // Expired tokens are not updates: the connection is not refused.
        XCTAssertNil(check(&session, bearer(FakeJWT.token(issuedAt: fixedNowSeconds))))
    }

    /// An older token used after a newer one becomes the cached one; its age is still measured
    /// from its own `iat`, not the newer current token's, by both the cache and a fresh check.
    func testAnOlderCachedTokenExpiresByItsOwnIssuedAt() {
        let newer = bearer(FakeJWT.token(issuedAt: fixedNowSeconds))
        let older = bearer(FakeJWT.token(issuedAt: fixedNowSeconds - 3500))
        var session = ProviderTokenSession()
        XCTAssertNil(check(&session, newer))
        XCTAssertNil(check(&session, older, at: now.adding(seconds: 1)))
        XCTAssertNil(check(&session, older, at: now.adding(seconds: 100)))
        XCTAssertEqual(check(&session, older, at: now.adding(seconds: 101)), .expiredProviderToken)
        XCTAssertEqual(check(&session, older, at: now.adding(seconds: 200)), .expiredProviderToken)
        // The newer token is still good, by its own iat, and the older one stays expired after it.
        XCTAssertNil(check(&session, newer, at: now.adding(seconds: 200)))
        XCTAssertEqual(check(&session, older, at: now.adding(seconds: 200)), .expiredProviderToken)
        var fresh = ProviderTokenSession()
        XCTAssertEqual(check(&fresh, older, at: now.adding(seconds: 200)), .expiredProviderToken)
    }
}
