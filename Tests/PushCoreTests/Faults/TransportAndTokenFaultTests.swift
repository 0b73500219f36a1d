import ByteCoding
import PushCore
import XCTest

/// The rules of `connection` (transport faults) and `match.serviceAccount` (token-endpoint
/// faults), docs/faults.md.
final class TransportAndTokenFaultTests: XCTestCase {
    private struct Case {
        let match: FaultMatch
        var error: String?
        var connection: String?
        var retryAfter: Int64?
        var delay: Int64?
        /// The field the 400 names; nil: accepted.
        let refusedField: String?
    }

    private func spec(_ c: Case) throws -> FaultSpec {
        try FaultSpec(
            match: c.match, errorName: c.error, times: nil, retryAfterSeconds: c.retryAfter, delayMilliseconds: c.delay,
            probability: nil, seed: nil, connectionName: c.connection)
    }

    func testWhichCombinationsAreAccepted() {
        let account = FaultMatch.serviceAccount("sa@demo.iam.gserviceaccount.com")
        let cases: [Case] = [
            // connection alone, or with every kind of match and a delay.
            Case(match: .everySend, connection: "reset", refusedField: nil),
            Case(match: .everySend, connection: "goaway", refusedField: nil),
            Case(match: .token("t"), connection: "reset", delay: 50, refusedField: nil),
            Case(match: .apnsToken("ab"), connection: "goaway", refusedField: nil),
            Case(match: .pushType(.voip), error: "Shutdown", connection: "goaway", refusedField: nil),
            Case(match: .topic("news"), error: "UNAVAILABLE", connection: "goaway", retryAfter: 2, refusedField: nil),
            Case(match: .everySend, connection: "hangup", refusedField: "connection"),
            Case(match: .everySend, connection: "", refusedField: "connection"),
            // reset answers nothing: no error, no Retry-After.
            Case(match: .everySend, error: "UNAVAILABLE", connection: "reset", refusedField: "error"),
            Case(match: .apnsToken("ab"), error: "Unregistered", connection: "reset", refusedField: "error"),
            Case(match: .everySend, connection: "reset", retryAfter: 1, refusedField: "retryAfterSeconds"),
            // Token requests: invalid_grant, UNAVAILABLE, connection faults, delays.
            Case(match: account, error: "invalid_grant", refusedField: nil),
            Case(match: account, error: "UNAVAILABLE", refusedField: nil),
            Case(match: account, error: "UNAVAILABLE", retryAfter: 3, refusedField: nil),
            Case(match: account, connection: "reset", refusedField: nil),
            Case(match: account, error: "invalid_grant", connection: "goaway", refusedField: nil),
            Case(match: account, delay: 100, refusedField: nil),
            Case(match: account, error: "INTERNAL", refusedField: "error"),
            Case(match: account, error: "UNREGISTERED", refusedField: "error"),
            Case(match: account, error: "Unregistered", refusedField: "error"),
            // invalid_grant needs a serviceAccount match.
            Case(match: .everySend, error: "invalid_grant", refusedField: "error"),
            Case(match: .token("t"), error: "invalid_grant", refusedField: "error"),
            Case(match: .apnsToken("ab"), error: "invalid_grant", refusedField: "error"),
            // Still nothing to do.
            Case(match: account, refusedField: ""),
        ]
        for (index, c) in cases.enumerated() {
            let label = "case \(index): \(c.match) \(c.error ?? "-") \(c.connection ?? "-")"
            do {
                let made = try spec(c)
                XCTAssertNil(c.refusedField, "accepted: \(label)")
                XCTAssertEqual(made.connection?.rawValue, c.connection, label)
            } catch {
                XCTAssertNotNil(c.refusedField, "refused: \(label): \(error)")
                let google = error as? GoogleError
                XCTAssertEqual(google?.httpStatus, 400, label)
                let violation = google?.json["error"]?["details"]?.arrayValue?.first?["fieldViolations"]?.arrayValue?.first
                XCTAssertEqual(violation?["field"]?.stringValue ?? "", c.refusedField ?? "?", label)
            }
        }
    }

    func testMatchKeyServiceAccountIsReadAndShown() throws {
        XCTAssertEqual(try FaultMatch(fields: [("serviceAccount", "a@b")]), .serviceAccount("a@b"))
        XCTAssertThrowsError(try FaultMatch(fields: [("serviceAccount", "")]))
        XCTAssertThrowsError(try FaultMatch(fields: [("serviceAccount", "a@b"), ("token", "t")]))
        let core = makeCore()
        let fault = try core.addFault(
            project: "p",
            try spec(Case(match: .serviceAccount("a@b"), error: "invalid_grant", connection: "goaway", refusedField: nil)))
        XCTAssertEqual(fault.json["match"]?["serviceAccount"], .string("a@b"))
        XCTAssertEqual(fault.json["error"], .string("invalid_grant"))
        XCTAssertEqual(fault.json["connection"], .string("goaway"))
    }

    func testTokenFaultsAndSendFaultsNeverCross() throws {
        let core = makeCore()
        // `{}` is every send, never a token request.
        try core.addFault(project: "p", try spec(Case(match: .everySend, connection: "reset", refusedField: nil)))
        XCTAssertNil(core.fireFault(onTokenRequestOf: "a@b"))
        XCTAssertEqual(core.fireFault(project: "p", on: .fcm(.token("t")))?.connection, .reset)
        core.deleteFaults(project: "p")
        try core.addFault(project: "p", try spec(Case(match: .serviceAccount("a@b"), error: "UNAVAILABLE", refusedField: nil)))
        XCTAssertNil(core.fireFault(project: "p", on: .fcm(.token("t"))))
        XCTAssertNil(core.fireFault(project: "p", on: .apns(deviceToken: "ab", pushType: nil)))
        XCTAssertNil(core.fireFault(onTokenRequestOf: "other@b"))
        XCTAssertEqual(core.fireFault(onTokenRequestOf: "a@b")?.error, .fcm(.unavailable))
    }

    func testTokenRequestsLookThroughEveryProject() throws {
        let core = makeCore()
        let once = Case(match: .serviceAccount("a@b"), error: "invalid_grant", refusedField: nil)
        try core.addFault(project: "zeta", try spec(once))
        let first = try core.addFault(project: "alpha", try FaultSpec(
            match: .serviceAccount("a@b"), errorName: "UNAVAILABLE", times: 1, retryAfterSeconds: nil,
            delayMilliseconds: nil, probability: nil, seed: nil))
        // Projects in id order: alpha's fault first, while its `times` lasts.
        XCTAssertEqual(core.fireFault(onTokenRequestOf: "a@b")?.error, .fcm(.unavailable))
        XCTAssertEqual(core.fireFault(onTokenRequestOf: "a@b")?.error, .invalidGrant)
        XCTAssertEqual(core.fault(project: "alpha", id: first.id)?.fired, 1)
        XCTAssertEqual(core.fault(project: "zeta", id: 1)?.fired, 1)
    }

    func testFiredFaultCarriesTheConnectionAfterTheDelay() throws {
        let core = makeCore()
        try core.addFault(
            project: "p",
            try spec(Case(match: .apnsToken("AB"), error: "Shutdown", connection: "goaway", delay: 20, refusedField: nil)))
        XCTAssertEqual(
            core.fireFault(project: "p", on: .apns(deviceToken: "ab", pushType: nil)),
            FiredFault(error: .apns(.shutdown), retryAfterSeconds: nil, delayMilliseconds: 20, connection: .goaway, faultID: 1))
    }

    func testTheClaimedIssuerIsReadWithoutChecks() {
        // {"alg":"none"} . {"iss":"a@b"} . signature: not a valid assertion, still an iss.
        let assertion = "eyJhbGciOiJub25lIn0.eyJpc3MiOiJhQGIifQ.c2ln"
        XCTAssertEqual(ServiceAccountAssertion.claimedIssuer(of: assertion), "a@b")
        XCTAssertNil(ServiceAccountAssertion.claimedIssuer(of: "not-a-jwt"))
        XCTAssertNil(ServiceAccountAssertion.claimedIssuer(of: "eyJhbGciOiJub25lIn0.e30.c2ln"))
    }
}
