import ByteCoding
import PushCore
import XCTest

final class FaultTests: XCTestCase {
    private func spec(
        _ match: FaultMatch = .everySend, error: String? = "UNAVAILABLE", times: Int64? = nil, retryAfter: Int64? = nil,
        delay: Int64? = nil, probability: Double? = nil, seed: Int64? = nil
    ) throws -> FaultSpec {
        try FaultSpec(
            match: match, errorName: error, times: times, retryAfterSeconds: retryAfter, delayMilliseconds: delay,
            probability: probability, seed: seed)
    }

    private func message(of error: Error) -> String {
        (error as? GoogleError)?.message ?? "\(error)"
    }

    func testRefusesWhatCannotWork() {
        XCTAssertThrowsError(try spec(error: "NOT_A_CODE")) { XCTAssertTrue(message(of: $0).contains("\"NOT_A_CODE\"")) }
        XCTAssertThrowsError(try spec(error: nil)) { XCTAssertTrue(message(of: $0).contains("error")) }
        XCTAssertThrowsError(try spec(.pushType(.alert), error: "UNREGISTERED")) {
            XCTAssertTrue(message(of: $0).contains("FCM error"))
        }
        XCTAssertThrowsError(try spec(.token("t"), error: "Unregistered")) {
            XCTAssertTrue(message(of: $0).contains("APNs reason"))
        }
        XCTAssertThrowsError(try spec(probability: 1.5)) { XCTAssertTrue(message(of: $0).contains("probability")) }
        XCTAssertThrowsError(try spec(probability: -0.1))
        XCTAssertThrowsError(try spec(seed: 3)) { XCTAssertTrue(message(of: $0).contains("seed")) }
        XCTAssertThrowsError(try spec(times: 0)) { XCTAssertTrue(message(of: $0).contains("times")) }
        XCTAssertThrowsError(try spec(delay: 60_001))
        XCTAssertThrowsError(try spec(retryAfter: -1))
        XCTAssertThrowsError(try FaultMatch(fields: [("token", "a"), ("topic", "b")]))
        XCTAssertThrowsError(try FaultMatch(fields: [("pushType", "sms")]))
        XCTAssertThrowsError(try FaultMatch(fields: [("color", "red")]))
        XCTAssertNoThrow(try spec(error: nil, delay: 800))
        XCTAssertNoThrow(try spec(.apnsToken("ab"), error: "Unregistered", delay: 10))
        XCTAssertEqual(try spec(error: nil, delay: 5).error, nil)
    }

    func testInvalidFaultIsAGoogle400NamingTheField() {
        XCTAssertThrowsError(try spec(probability: 2)) { error in
            let google = error as? GoogleError
            XCTAssertEqual(google?.httpStatus, 400)
            let violation = google?.json["error"]?["details"]?.arrayValue?.first?["fieldViolations"]?.arrayValue?.first
            XCTAssertEqual(violation?["field"], .string("probability"))
        }
    }

    func testMatchesItsSendsOnly() throws {
        let core = makeCore()
        try core.addFault(project: "p", try spec(.token("a"), error: "UNREGISTERED"))
        XCTAssertNil(core.fireFault(project: "p", on: .fcm(.token("b"))))
        XCTAssertNil(core.fireFault(project: "p", on: .fcm(.topic("a"))))
        XCTAssertNil(core.fireFault(project: "other", on: .fcm(.token("a"))))
        XCTAssertEqual(core.fireFault(project: "p", on: .fcm(.token("a")))?.error, .fcm(.unregistered))
    }

    func testErrorKindPicksTheAPI() throws {
        let core = makeCore()
        try core.addFault(project: "p", try spec(error: "TooManyRequests", retryAfter: 3))
        XCTAssertNil(core.fireFault(project: "p", on: .fcm(.token("a"))))
        let fired = core.fireFault(project: "p", on: .apns(deviceToken: "AB", pushType: nil))
        XCTAssertEqual(fired, FiredFault(error: .apns(.tooManyRequests), retryAfterSeconds: 3, delayMilliseconds: nil))
        let delay = try spec(error: nil, delay: 5)
        core.deleteFaults(project: "p")
        try core.addFault(project: "p", delay)
        XCTAssertNotNil(core.fireFault(project: "p", on: .fcm(.token("a"))))
        XCTAssertNotNil(core.fireFault(project: "p", on: .apns(deviceToken: "ab", pushType: .alert)))
    }

    func testAPNsMatchesTokenInAnyCaseAndPushType() throws {
        let core = makeCore()
        try core.addFault(project: "p", try spec(.apnsToken("ABCD"), error: "Unregistered"))
        try core.addFault(project: "p", try spec(.pushType(.voip), error: "ServiceUnavailable"))
        XCTAssertEqual(core.fireFault(project: "p", on: .apns(deviceToken: "abcd", pushType: nil))?.error, .apns(.unregistered))
        XCTAssertEqual(
            core.fireFault(project: "p", on: .apns(deviceToken: "ee", pushType: .voip))?.error, .apns(.serviceUnavailable))
        XCTAssertNil(core.fireFault(project: "p", on: .apns(deviceToken: "ee", pushType: .alert)))
    }

    func testTimesCountsFiredAttemptsThenStops() throws {
        let core = makeCore()
        let fault = try core.addFault(project: "p", try spec(times: 2))
        XCTAssertNotNil(core.fireFault(project: "p", on: .fcm(.token("a"))))
        XCTAssertNotNil(core.fireFault(project: "p", on: .fcm(.token("a"))))
        XCTAssertNil(core.fireFault(project: "p", on: .fcm(.token("a"))))
        let stored = try XCTUnwrap(core.fault(project: "p", id: fault.id))
        XCTAssertEqual(stored.fired, 2)
        XCTAssertTrue(stored.isUsedUp)
    }

    func testFirstFaultThatFiresDecides() throws {
        let core = makeCore()
        try core.addFault(project: "p", try spec(error: "INTERNAL", times: 1))
        try core.addFault(project: "p", try spec(error: "UNAVAILABLE"))
        XCTAssertEqual(core.fireFault(project: "p", on: .fcm(.token("a")))?.error, .fcm(.internal))
        XCTAssertEqual(core.fireFault(project: "p", on: .fcm(.token("a")))?.error, .fcm(.unavailable))
    }

    func testSeededProbabilityRepeatsItsSequence() throws {
        func run() throws -> [Bool] {
            let core = makeCore()
            try core.addFault(project: "p", try spec(probability: 0.5, seed: 7))
            return (0..<64).map { _ in core.fireFault(project: "p", on: .fcm(.token("a"))) != nil }
        }
        let first = try run()
        XCTAssertEqual(first, try run())
        XCTAssertTrue(first.contains(true) && first.contains(false))
        let fired = first.filter { $0 }.count
        XCTAssertTrue((16...48).contains(fired), "\(fired) of 64")
    }

    func testProbabilityWithoutSeedShowsTheChosenSeed() throws {
        let core = makeCore()
        let fault = try core.addFault(project: "p", try spec(probability: 0.5))
        XCTAssertNotNil(fault.spec.seed)
        XCTAssertNotNil(fault.json["seed"])
    }

    func testProjectResetClearsFaults() throws {
        let core = makeCore()
        try core.addFault(project: "p", try spec())
        core.resetProject("p")
        XCTAssertNil(core.fireFault(project: "p", on: .fcm(.token("a"))))
        XCTAssertEqual(try core.faults(project: "p").items.count, 0)
        try core.addFault(project: "q", try spec())
        core.resetAll()
        XCTAssertNil(core.fireFault(project: "q", on: .fcm(.token("a"))))
    }

    func testDeleteAndPaging() throws {
        let core = makeCore()
        for _ in 0..<3 { try core.addFault(project: "p", try spec()) }
        let first = try core.faults(project: "p", page: PageRequest(size: 2))
        XCTAssertEqual(first.items.map(\.id), [1, 2])
        let second = try core.faults(project: "p", page: PageRequest(size: 2, token: first.nextPageToken))
        XCTAssertEqual(second.items.map(\.id), [3])
        XCTAssertTrue(core.deleteFault(project: "p", id: 2))
        XCTAssertFalse(core.deleteFault(project: "p", id: 2))
        XCTAssertEqual(try core.faults(project: "p").items.map(\.id), [1, 3])
    }

    func testInjectedFCMBodiesCarryTheirFcmErrorDetail() {
        for code in FCMErrorCode.allCases {
            let error = GoogleError.fcm(code, toDevice: true, retryAfterSeconds: nil)
            let fcmDetail = error.json["error"]?["details"]?.arrayValue?.last
            XCTAssertEqual(fcmDetail?["@type"], .string("type.googleapis.com/google.firebase.fcm.v1.FcmError"))
            XCTAssertEqual(fcmDetail?["errorCode"], .string(code.rawValue), code.rawValue)
        }
        XCTAssertEqual(GoogleError.fcm(.quotaExceeded, toDevice: true, retryAfterSeconds: 1).httpStatus, 429)
        XCTAssertEqual(GoogleError.fcm(.quotaExceeded, toDevice: true, retryAfterSeconds: 1).retryAfterSeconds, 1)
        XCTAssertEqual(GoogleError.fcm(.thirdPartyAuthError, toDevice: true, retryAfterSeconds: nil).httpStatus, 401)
        XCTAssertEqual(GoogleError.fcm(.unavailable, toDevice: false, retryAfterSeconds: nil).retryAfterSeconds, nil)
        XCTAssertEqual(GoogleError.fcm(.unspecified, toDevice: false, retryAfterSeconds: nil).status, .unknown)
    }
}
