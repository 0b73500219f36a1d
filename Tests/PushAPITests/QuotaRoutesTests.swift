import ByteCoding
import HTTPServer
import PushCore
import XCTest
@testable import PushAPI

/// The quotas' admin API and answers (docs/quotas.md): the 429 bodies of FCM (a device's limit,
/// the project's) and APNs, the client errors counted, and the metrics.
final class QuotaRoutesTests: XCTestCase {
    private func makeApp(_ limits: QuotaLimits = .off) -> EmulatorApp {
        var settings = EmulatorApp.Settings()
        settings.core.quotaLimits = limits
        settings.apns.auth = .off
        return EmulatorApp(settings: settings, wallTime: { 1_795_300_000_000 })
    }

    private func call(
        _ app: EmulatorApp, _ method: String, _ target: String, _ body: String = "", headers extra: [(String, String)] = []
    ) -> (status: Int, body: JSONValue?, headers: HTTPHeaders) {
        var headers = HTTPHeaders()
        headers.add("authorization", "Bearer test")
        for (name, value) in extra { headers.add(name, value) }
        let response = app.handle(
            HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8), version: .http2))
        guard case .bytes(let bytes) = response.body else { return (response.status, nil, response.headers) }
        return (response.status, bytes.isEmpty ? nil : try? JSONParser.parse(bytes), response.headers)
    }

    private func registerAndroid(_ app: EmulatorApp) -> String {
        call(app, "POST", "/emulator/v1/projects/p/devices", #"{"platform":"android"}"#).body?["token"]?.stringValue ?? ""
    }

    private func send(_ app: EmulatorApp, _ token: String) -> (status: Int, body: JSONValue?, headers: HTTPHeaders) {
        call(app, "POST", "/v1/projects/p/messages:send", #"{"message":{"token":"\#(token)","data":{"k":"v"}}}"#)
    }

    func testGetAndPatchTheLimits() {
        let app = makeApp(.google)
        let (status, limits, _) = call(app, "GET", "/emulator/v1/projects/p/quotas")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(limits?["projectMessagesPerMinute"], .number("600000"))
        XCTAssertEqual(limits?["collapsibleRefillSeconds"], .number("180"))
        let (patched, changed, _) = call(
            app, "PATCH", "/emulator/v1/projects/p/quotas",
            #"{"androidDevicePerMinute":2,"collapsibleBurst":null,"collapsibleRefillSeconds":null}"#)
        XCTAssertEqual(patched, 200)
        XCTAssertEqual(changed?["androidDevicePerMinute"], .number("2"))
        XCTAssertEqual(changed?["collapsibleBurst"], .null)
        XCTAssertEqual(changed?["androidDevicePerHour"], .number("5000"))
        XCTAssertEqual(call(app, "GET", "/emulator/v1/projects/p/quotas").body, changed)
        // Another project keeps the command line's.
        XCTAssertEqual(call(app, "GET", "/emulator/v1/projects/other/quotas").body, limits)
        // The burst and its refill go together: a number for one alone brings Google's other; a
        // contradiction is refused, and nothing changes.
        let (paired, burst, _) = call(app, "PATCH", "/emulator/v1/projects/p/quotas", #"{"collapsibleBurst":5}"#)
        XCTAssertEqual(paired, 200)
        XCTAssertEqual(burst?["collapsibleRefillSeconds"], .number("180"))
        let (refused, _, _) = call(
            app, "PATCH", "/emulator/v1/projects/p/quotas",
            #"{"collapsibleBurst":5,"collapsibleRefillSeconds":null,"androidDevicePerMinute":7}"#)
        XCTAssertEqual(refused, 400)
        XCTAssertEqual(call(app, "GET", "/emulator/v1/projects/p/quotas").body, burst)
        let (_, off, _) = call(app, "PATCH", "/emulator/v1/projects/p/quotas", #"{"collapsibleRefillSeconds":null}"#)
        XCTAssertEqual(off?["collapsibleBurst"], .null)
        XCTAssertEqual(off?["androidDevicePerMinute"], .number("2"))
        for bad in [#"{"androidDevicePerMinute":0}"#, #"{"androidDevicePerMinute":"many"}"#, #"{"perDay":5}"#, "[1]"] {
            let (status, error, _) = call(app, "PATCH", "/emulator/v1/projects/p/quotas", bad)
            XCTAssertEqual(status, 400, bad)
            XCTAssertEqual(error?["error"]?["status"], .string("INVALID_ARGUMENT"), bad)
        }
    }

    /// A device's limit: FcmError QUOTA_EXCEEDED (the SDKs' quota error) and a QuotaFailure; no Retry-After.
    func testTheDeviceLimitsAnswer() {
        let app = makeApp(QuotaLimits(androidDevicePerMinute: 1))
        let token = registerAndroid(app)
        XCTAssertEqual(send(app, token).status, 200)
        let (status, body, headers) = send(app, token)
        XCTAssertEqual(status, 429)
        XCTAssertNil(headers["retry-after"])
        XCTAssertEqual(body?["error"]?["status"], .string("RESOURCE_EXHAUSTED"))
        let details = body?["error"]?["details"]?.arrayValue ?? []
        XCTAssertEqual(details.first?["errorCode"], .string("QUOTA_EXCEEDED"))
        XCTAssertEqual(details.last?["@type"], .string("type.googleapis.com/google.rpc.QuotaFailure"))
        XCTAssertEqual(details.last?["violations"]?.arrayValue?.first?["subject"], .string("registration_token:\(token)"))
    }

    /// The project's limit: production's body (ErrorInfo RATE_LIMIT_EXCEEDED, no FcmError), with
    /// client errors counted and 429s not.
    func testTheProjectLimitsAnswerAndWhatItCounts() {
        let app = makeApp(QuotaLimits(projectMessagesPerMinute: 3, androidDevicePerMinute: 1))
        let token = registerAndroid(app)
        XCTAssertEqual(send(app, token).status, 200)
        XCTAssertEqual(send(app, token).status, 429)
        XCTAssertEqual(call(app, "POST", "/v1/projects/p/messages:send", #"{"message":{}}"#).status, 400)
        XCTAssertEqual(send(app, "not a token").status, 400)
        let (status, body, headers) = send(app, token)
        XCTAssertEqual(status, 429)
        XCTAssertNil(headers["retry-after"])
        let error = body?["error"]
        XCTAssertEqual(error?["message"]?.stringValue?.hasPrefix("Quota exceeded for quota metric 'Send requests'"), true)
        let info = error?["details"]?.arrayValue?.first
        XCTAssertEqual(info?["reason"], .string("RATE_LIMIT_EXCEEDED"))
        XCTAssertEqual(info?["metadata"]?["quota_limit_value"], .string("3"))
        XCTAssertEqual(info?["metadata"]?["quota_limit"], .string("SendsPerMinutePerProject"))
        XCTAssertFalse(error?["details"]?.arrayValue?.contains { $0["errorCode"] != nil } ?? true)
        let metrics = String(decoding: metricsText(app), as: UTF8.self)
        XCTAssertTrue(metrics.contains(#"push_emulator_throttled_total{quota="projectMessages"} 1"#), metrics)
        XCTAssertTrue(metrics.contains(#"push_emulator_throttled_total{quota="androidDeviceMinute"} 1"#))
        XCTAssertTrue(metrics.contains("push_emulator_collapsible_delayed_total 0"))
    }

    /// APNs: 429 TooManyRequests for a device token past its limit; subscriptions: 429 from the
    /// v1 API, `RESOURCE_EXHAUSTED` per token from the Instance ID batch.
    func testAPNsAndSubscriptionAnswers() {
        let app = makeApp(QuotaLimits(appleDevicePerMinute: 1, topicSubscriptionsPerSecond: 1))
        let apnsToken = String(repeating: "ab", count: 32)
        let device = call(app, "POST", "/emulator/v1/projects/p/devices", #"{"apnsToken":"\#(apnsToken)"}"#).body
        let token = device?["token"]?.stringValue ?? ""
        let headers = [("apns-topic", "com.example.app"), ("apns-push-type", "alert")]
        let body = #"{"aps":{"alert":"hi"}}"#
        XCTAssertEqual(call(app, "POST", "/3/device/\(apnsToken)", body, headers: headers).status, 200)
        let (status, reason, _) = call(app, "POST", "/3/device/\(apnsToken)", body, headers: headers)
        XCTAssertEqual(status, 429)
        XCTAssertEqual(reason?["reason"], .string("TooManyRequests"))
        XCTAssertEqual(
            call(app, "POST", "/v1/projects/p/registrations/\(token)/topicSubscriptions?topicName=a", "{}").status, 200)
        let (refused, error, _) = call(app, "POST", "/v1/projects/p/registrations/\(token)/topicSubscriptions?topicName=b", "{}")
        XCTAssertEqual(refused, 429)
        XCTAssertEqual(error?["error"]?["details"]?.arrayValue?.first?["errorCode"], .string("QUOTA_EXCEEDED"))
        let batch = call(app, "POST", "/iid/v1:batchAdd", #"{"to":"/topics/c","registration_tokens":["\#(token)"]}"#, headers: [("access_token_auth", "true")])
        XCTAssertEqual(batch.body?["results"], .array([["error": "RESOURCE_EXHAUSTED"]]))
    }

    private func metricsText(_ app: EmulatorApp) -> [UInt8] {
        let response = app.handle(HTTPRequest(method: "GET", target: "/metrics", headers: HTTPHeaders(), body: []))
        guard case .bytes(let bytes) = response.body else { return [] }
        return bytes
    }
}
