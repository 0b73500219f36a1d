import ByteCoding
import PushCore
import XCTest

/// The rate limits of docs/quotas.md, each window as a table on the emulator's clock: FCM's
/// messages per project per minute (client errors counted, 429s not), an Android device's per
/// minute and per hour, an Apple device's (APNs and FCM together), topic subscriptions per second.
final class QuotaTests: XCTestCase {
    private func core(_ limits: QuotaLimits) -> PushEmulatorCore {
        var configuration = PushCoreConfiguration()
        configuration.quotaLimits = limits
        return makeCore(configuration)
    }

    private func register(_ core: PushEmulatorCore, _ platform: Platform, token: String, apnsToken: String? = nil) {
        _ = try! core.registerDevice(
            project: "demo", DeviceRegistration(platform: platform, apnsToken: apnsToken, token: token)
        ).get()
    }

    @discardableResult
    private func send(_ core: PushEmulatorCore, _ json: String) -> SendOutcome<GoogleError> {
        let body = Array(json.utf8)
        return core.send(project: "demo", message: try! FCMSendRequest(body: body).message, requestBody: body)
    }

    private func sendData(_ core: PushEmulatorCore, to token: String) -> SendOutcome<GoogleError> {
        send(core, #"{"message":{"token":"\#(token)","data":{"k":"v"}}}"#)
    }

    /// "accepted", "unreachable" or the limit that refused it.
    private func result<Failure>(_ outcome: SendOutcome<Failure>) -> String {
        switch outcome {
        case .accepted: "accepted"
        case .unreachable: "unreachable"
        case .rejected: "rejected"
        case .exhausted: "exhausted"
        case .throttled(let kind, _): kind.rawValue
        }
    }

    /// Moves the clock to `seconds` after the fixed start.
    private func at(_ core: PushEmulatorCore, _ seconds: Int64) {
        core.resetClock()
        core.advanceClock(seconds: seconds)
    }

    func testOffByDefaultAndGoogleNumbers() {
        XCTAssertTrue(PushCoreConfiguration().quotaLimits.isOff)
        XCTAssertEqual(QuotaLimits.google.projectMessagesPerMinute, 600_000)
        XCTAssertEqual(QuotaLimits.google.androidDevicePerMinute, 240)
        XCTAssertEqual(QuotaLimits.google.androidDevicePerHour, 5_000)
        XCTAssertEqual(QuotaLimits.google.topicSubscriptionsPerSecond, 3_000)
        // Off: 300 sends to one Android device in a second all go through.
        let core = makeCore()
        register(core, .android, token: "android-1")
        for _ in 0..<300 { XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted") }
        XCTAssertEqual(core.throttledCounts.values.reduce(0, +), 0)
    }

    /// The project's window opens with its first message, not on the clock's minute.
    func testProjectMessagesPerMinuteInAnUnalignedWindow() {
        let core = core(QuotaLimits(projectMessagesPerMinute: 3))
        register(core, .android, token: "android-1")
        // Each row: seconds after the start, and what a send answers.
        let rows: [(Int64, String)] = [
            (30, "accepted"), (31, "accepted"), (45, "accepted"), (46, "projectMessages"), (89, "projectMessages"),
            (90, "accepted"), (91, "accepted"), (92, "accepted"), (149, "projectMessages"), (150, "accepted"),
        ]
        for (seconds, expected) in rows {
            at(core, seconds)
            XCTAssertEqual(result(sendData(core, to: "android-1")), expected, "at \(seconds) s")
        }
        XCTAssertEqual(core.throttledCounts[.projectMessages], 3)
    }

    /// Client errors count (a send to an unknown token, one refused before the core), 429s do not.
    func testClientErrorsCountAndThrottledSendsDoNot() {
        var limits = QuotaLimits(projectMessagesPerMinute: 4, androidDevicePerMinute: 1)
        let core = core(limits)
        register(core, .android, token: "android-1")
        XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted")
        // A device's 429 is given back to the project's window.
        XCTAssertEqual(result(sendData(core, to: "android-1")), "androidDeviceMinute")
        XCTAssertEqual(result(sendData(core, to: "android-1")), "androidDeviceMinute")
        // 404 UNREGISTERED is a client error: counted.
        _ = try! core.uninstallDevice(project: "demo", token: "android-1").get()
        XCTAssertEqual(result(sendData(core, to: "android-1")), "unreachable")
        core.countClientError(project: "demo")
        register(core, .android, token: "android-2")
        XCTAssertEqual(result(sendData(core, to: "android-2")), "accepted")
        XCTAssertEqual(result(sendData(core, to: "android-3")), "projectMessages")
        // Raised through the API, the limit applies at once to the open window.
        limits.projectMessagesPerMinute = 5
        core.setQuotaLimits(project: "demo", limits)
        XCTAssertEqual(core.quotaLimits(project: "demo"), limits)
        register(core, .android, token: "android-3")
        XCTAssertEqual(result(sendData(core, to: "android-3")), "accepted")
        XCTAssertEqual(result(sendData(core, to: "android-3")), "projectMessages")
    }

    /// An Android device's two windows: a send the hour refuses gives back its minute.
    func testAndroidDevicePerMinuteAndPerHour() {
        let core = core(QuotaLimits(androidDevicePerMinute: 2, androidDevicePerHour: 5))
        register(core, .android, token: "android-1")
        register(core, .android, token: "android-2")
        let rows: [(Int64, String)] = [
            (0, "accepted"), (1, "accepted"), (2, "androidDeviceMinute"), (59, "androidDeviceMinute"),
            (60, "accepted"), (61, "accepted"), (62, "androidDeviceMinute"),
            (120, "accepted"), (121, "androidDeviceHour"), (122, "androidDeviceHour"),
            (3_599, "androidDeviceHour"), (3_600, "accepted"), (3_601, "accepted"), (3_602, "androidDeviceMinute"),
        ]
        for (seconds, expected) in rows {
            at(core, seconds)
            XCTAssertEqual(result(sendData(core, to: "android-1")), expected, "at \(seconds) s")
        }
        // Another device has its own windows.
        XCTAssertEqual(result(sendData(core, to: "android-2")), "accepted")
        XCTAssertEqual(core.throttledCounts[.androidDeviceHour], 3)
    }

    /// An Apple device's limit (ours) counts APNs pushes and FCM sends together; a web device has none.
    func testAppleDeviceLimitCountsBothAPIsAndWebHasNone() {
        let apnsToken = String(repeating: "ab", count: 32)
        let core = core(QuotaLimits(androidDevicePerMinute: 1, appleDevicePerMinute: 2))
        register(core, .ios, token: "ios-1", apnsToken: apnsToken)
        register(core, .web, token: "web-1")
        XCTAssertEqual(result(sendData(core, to: "ios-1")), "accepted")
        XCTAssertEqual(result(sendAPNs(core, apnsToken: apnsToken, body: "hi")), "accepted")
        XCTAssertEqual(result(sendData(core, to: "ios-1")), "appleDeviceMinute")
        XCTAssertEqual(result(sendAPNs(core, apnsToken: apnsToken, body: "hi")), "appleDeviceMinute")
        at(core, 60)
        XCTAssertEqual(result(sendAPNs(core, apnsToken: apnsToken, body: "hi")), "accepted")
        for _ in 0..<10 { XCTAssertEqual(result(sendData(core, to: "web-1")), "accepted") }
    }

    /// A topic send counts once for the project and is not refused for a device over its limit.
    func testTopicSendsCountForTheProjectOnly() throws {
        let core = core(QuotaLimits(projectMessagesPerMinute: 3, androidDevicePerMinute: 1))
        register(core, .android, token: "android-1")
        _ = try core.subscribe(project: "demo", registration: "android-1", topic: "news").get()
        for _ in 0..<3 {
            guard case .accepted(let sent) = send(core, #"{"message":{"topic":"news","data":{"k":"v"}}}"#) else {
                return XCTFail("refused")
            }
            XCTAssertEqual(sent.deliveryNumbers.count, 1)
        }
        XCTAssertEqual(result(send(core, #"{"message":{"topic":"news","data":{"k":"v"}}}"#)), "projectMessages")
    }

    /// Subscription changes per second, through the v1 API and the Instance ID batch (per token).
    func testTopicSubscriptionsPerSecond() {
        let core = core(QuotaLimits(topicSubscriptionsPerSecond: 2))
        register(core, .android, token: "android-1")
        XCTAssertNil(core.subscribe(project: "demo", registration: "android-1", topic: "a").failure)
        XCTAssertNil(core.unsubscribe(project: "demo", registration: "android-1", topic: "a").failure)
        XCTAssertEqual(core.subscribe(project: "demo", registration: "android-1", topic: "b").failure, .quotaExceeded)
        XCTAssertEqual(SubscriptionError.quotaExceeded.googleError.status, .resourceExhausted)
        at(core, 1)
        XCTAssertEqual(core.batchSubscription(tokens: ["android-1", "android-1", "android-1"], topic: "c", subscribe: true), [nil, nil, .quotaExceeded])
        XCTAssertEqual(SubscriptionError.quotaExceeded.instanceIDCode, "RESOURCE_EXHAUSTED")
        XCTAssertEqual(core.throttledCounts[.topicSubscriptions], 2)
    }

    /// Limits are per project; a reset project starts again with the command line's.
    func testLimitsArePerProjectAndAResetRestoresTheDefaults() throws {
        let core = core(.google)
        core.setQuotaLimits(project: "demo", QuotaLimits(androidDevicePerMinute: 1))
        XCTAssertEqual(core.quotaLimits(project: "other"), .google)
        register(core, .android, token: "android-1")
        XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted")
        XCTAssertEqual(result(sendData(core, to: "android-1")), "androidDeviceMinute")
        // Uninstalled and registered again with the token: a new device, with a new window.
        _ = try core.uninstallDevice(project: "demo", token: "android-1").get()
        register(core, .android, token: "android-1")
        XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted")
        core.resetProject("demo")
        XCTAssertEqual(core.quotaLimits(project: "demo"), .google)
    }

    /// A project that does not exist yet counts the subscription that makes it; the burst of
    /// collapsible messages and its refill go together.
    func testANewProjectCountsItsFirstSubscriptionAndCollapsibleLimitsGoTogether() {
        let core = core(QuotaLimits(topicSubscriptionsPerSecond: 1))
        XCTAssertNil(core.subscribe(project: "fresh", registration: "new-token-1", topic: "a").failure)
        XCTAssertEqual(core.subscribe(project: "fresh", registration: "new-token-2", topic: "a").failure, .quotaExceeded)
        XCTAssertNil(core.setQuotaLimits(project: "fresh", QuotaLimits(collapsibleBurst: 5)))
        XCTAssertEqual(core.quotaLimits(project: "fresh"), QuotaLimits(topicSubscriptionsPerSecond: 1))
        XCTAssertFalse(QuotaLimits(collapsibleRefillSeconds: 5).isConsistent)
        XCTAssertTrue(QuotaLimits.google.isConsistent)
    }

    /// Two sends that read the clock a moment apart and count in the other order stay in one
    /// window: a time a little before its start counts in it.
    func testATimeJustBeforeTheWindowsStartCountsInIt() {
        let core = core(QuotaLimits(androidDevicePerMinute: 2))
        register(core, .android, token: "android-1")
        at(core, 1_000)
        XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted")
        at(core, 999)
        XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted")
        XCTAssertEqual(result(sendData(core, to: "android-1")), "androidDeviceMinute")
        at(core, 1_060)
        XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted")
    }

    /// A window opened, then the clock moved back before its start: a new window opens.
    func testAClockMovedBackOpensANewWindow() {
        let core = core(QuotaLimits(androidDevicePerMinute: 1))
        register(core, .android, token: "android-1")
        at(core, 600)
        XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted")
        at(core, 0)
        XCTAssertEqual(result(sendData(core, to: "android-1")), "accepted")
        XCTAssertEqual(result(sendData(core, to: "android-1")), "androidDeviceMinute")
    }
}
