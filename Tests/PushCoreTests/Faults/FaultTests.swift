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
        XCTAssertEqual(fired, FiredFault(error: .apns(.tooManyRequests), retryAfterSeconds: 3, delayMilliseconds: nil, faultID: 1))
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

    /// A match no attempt that reaches the faults could carry is refused, naming the field.
    func testAMatchThatCanNeverMatchIsRefused() {
        let never: [(String, String)] = [
            ("topic", "news feed"), ("topic", "/topics/"), ("topic", String(repeating: "t", count: 901)),
            ("apnsToken", "abc"), ("apnsToken", "zz"), ("apnsToken", String(repeating: "a", count: 514)),
        ]
        for (key, value) in never {
            XCTAssertThrowsError(try FaultMatch(fields: [(key, value)]), "\(key): \(value)") { error in
                XCTAssertTrue(message(of: error).contains("match.\(key) can never match"), message(of: error))
                let google = error as? GoogleError
                let violation = google?.json["error"]?["details"]?.arrayValue?.first?["fieldViolations"]?.arrayValue?.first
                XCTAssertEqual(violation?["field"], .string("match.\(key)"))
            }
        }
        XCTAssertEqual(try FaultMatch(fields: [("topic", "/topics/news")]), .topic("news"))
        // A condition is compared as text; its grammar is more than a JSON schema can say, so the
        // API takes any text (one FCM refuses never matches).
        XCTAssertEqual(try FaultMatch(fields: [("condition", "'a' in")]), .condition("'a' in"))
        XCTAssertEqual(try FaultMatch(fields: [("apnsToken", "ABCD")]), .apnsToken("abcd"))
        // FCM answers a malformed registration token only after the faults: any text can match.
        XCTAssertEqual(try FaultMatch(fields: [("token", "not a token")]), .token("not a token"))
        XCTAssertEqual(try FaultMatch(fields: [("serviceAccount", "anyone")]), .serviceAccount("anyone"))
    }

    func testTimesGoesUpToItsDocumentedMaximum() throws {
        XCTAssertEqual(try spec(times: Int64(FaultSpec.maximumTimes)).times, 2_147_483_647)
        XCTAssertThrowsError(try spec(times: Int64(FaultSpec.maximumTimes) + 1)) {
            XCTAssertTrue(message(of: $0).contains("from 1 to 2147483647"), message(of: $0))
        }
    }

    /// A project keeps at most 1,000 faults: the next is a 400 FAILED_PRECONDITION, and deleting
    /// one makes room. Other projects are not concerned.
    func testAProjectKeepsAtMostAThousandFaults() throws {
        let core = makeCore()
        for _ in 0..<1_000 { try core.addFault(project: "p", try spec()) }
        XCTAssertThrowsError(try core.addFault(project: "p", try spec())) { error in
            let google = error as? GoogleError
            XCTAssertEqual(google?.httpStatus, 400)
            XCTAssertEqual(google?.status, .failedPrecondition)
            XCTAssertTrue(message(of: error).contains("1000 faults"), message(of: error))
        }
        try core.addFault(project: "q", try spec())
        XCTAssertTrue(core.deleteFault(project: "p", id: 1))
        XCTAssertEqual(try core.addFault(project: "p", try spec()).id, 1_001)
    }

    /// A state import refuses what `POST .../faults` refuses: a match that can never match, and
    /// more faults in a project than it keeps.
    func testAnImportRefusesWhatCreationRefuses() throws {
        let core = makeCore()
        try core.addFault(project: "p", try spec(.topic("news")))
        let exported = String(decoding: core.exportStateBytes(), as: UTF8.self)
        let neverMatching = exported.replacingOccurrences(of: #""topic":"news""#, with: #""topic":"news feed""#)
        XCTAssertNotEqual(neverMatching, exported)
        XCTAssertThrowsError(try core.importState(Array(neverMatching.utf8))) { error in
            let snapshotError = error as? SnapshotError
            XCTAssertEqual(snapshotError?.path, "projects[0].faults[0]")
            XCTAssertTrue(snapshotError?.problem.contains("match.topic can never match") == true, "\(error)")
        }

        guard let start = exported.range(of: #""faults":["#)?.upperBound,
            let end = exported[start...].range(of: #"}],"next""#)?.lowerBound
        else { return XCTFail("no fault in \(exported)") }
        let fault = String(exported[start...end])
        let faults = (1...1_001).map { fault.replacingOccurrences(of: #""id":"1""#, with: #""id":"\#($0)""#) }
        let tooMany = exported.replacingOccurrences(of: fault, with: faults.joined(separator: ","))
            .replacingOccurrences(of: #""faultId":2"#, with: #""faultId":1002"#)
        XCTAssertThrowsError(try core.importState(Array(tooMany.utf8))) { error in
            XCTAssertEqual((error as? SnapshotError)?.path, "projects[0].faults", "\(error)")
        }
        let thousand = exported.replacingOccurrences(of: fault, with: faults.dropLast().joined(separator: ","))
            .replacingOccurrences(of: #""faultId":2"#, with: #""faultId":1001"#)
        try core.importState(Array(thousand.utf8))
        XCTAssertEqual(try core.faults(project: "p", page: PageRequest(size: 1_000)).items.count, 1_000)
    }
}
