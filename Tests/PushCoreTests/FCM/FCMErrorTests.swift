import ByteCoding
import XCTest
@testable import PushCore

/// Every FCM error body, exactly as fcm-v1.md gives it (key order included).
final class FCMErrorTests: XCTestCase {
    private let fcmError = #"{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"#

    func testFCMErrorBodies() {
        let rows: [(GoogleError, Int, String, Int?)] = [
            (
                .fcmInvalidRegistrationToken(), 400,
                #"{"error":{"code":400,"message":"The registration token is not a valid FCM registration token","status":"INVALID_ARGUMENT","details":["#
                    + fcmError + #""INVALID_ARGUMENT"}]}}"#, nil
            ),
            (
                .fcmUnregistered(), 404,
                #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND","details":["#
                    + fcmError + #""UNREGISTERED"}]}}"#, nil
            ),
            (
                .fcmSenderIDMismatch(), 403,
                #"{"error":{"code":403,"message":"SenderId mismatch","status":"PERMISSION_DENIED","details":["#
                    + fcmError + #""SENDER_ID_MISMATCH"}]}}"#, nil
            ),
            (
                .fcmThirdPartyAuthError(), 401,
                #"{"error":{"code":401,"message":"Auth error from APNS or Web Push Service","status":"UNAUTHENTICATED","details":["#
                    + fcmError + #""THIRD_PARTY_AUTH_ERROR"}]}}"#, nil
            ),
            (
                .fcmQuotaExceeded(retryAfterSeconds: 30), 429,
                #"{"error":{"code":429,"message":"Quota exceeded for the message target.","status":"RESOURCE_EXHAUSTED","details":["#
                    + fcmError + #""QUOTA_EXCEEDED"}]}}"#, 30
            ),
            (
                .fcmUnavailable(retryAfterSeconds: 5), 503,
                #"{"error":{"code":503,"message":"The service is currently unavailable.","status":"UNAVAILABLE","details":["#
                    + fcmError + #""UNAVAILABLE"}]}}"#, 5
            ),
            (
                .fcmInternal(), 500,
                #"{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL","details":["#
                    + fcmError + #""INTERNAL"}]}}"#, nil
            ),
            (
                .invalidArgument(
                    "Invalid value at 'message.data[0].value' (TYPE_STRING), 12",
                    fieldViolations: [
                        GoogleFieldViolation(
                            field: "message.data[0].value",
                            description: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12")
                    ]), 400,
                #"{"error":{"code":400,"message":"Invalid value at 'message.data[0].value' (TYPE_STRING), 12","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.data[0].value","description":"Invalid value at 'message.data[0].value' (TYPE_STRING), 12"}]}]}}"#,
                nil
            ),
            (
                .unauthenticated(reason: "ACCESS_TOKEN_EXPIRED"), 401,
                #"{"error":{"code":401,"message":"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.","status":"UNAUTHENTICATED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ACCESS_TOKEN_EXPIRED","domain":"googleapis.com","metadata":{"method":"google.firebase.fcm.v1.FcmService.SendMessage","service":"fcm.googleapis.com"}}]}}"#,
                nil
            ),
            (
                .unauthenticated(reason: "CREDENTIALS_MISSING"), 401,
                #"{"error":{"code":401,"message":"Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.","status":"UNAUTHENTICATED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"CREDENTIALS_MISSING","domain":"googleapis.com","metadata":{"method":"google.firebase.fcm.v1.FcmService.SendMessage","service":"fcm.googleapis.com"}}]}}"#,
                nil
            ),
            (
                .rateLimitExceeded(retryAfterSeconds: 60), 429,
                #"{"error":{"code":429,"message":"Quota exceeded for quota metric 'Send requests' of service 'fcm.googleapis.com'.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com","metadata":{"service":"fcm.googleapis.com"}}]}}"#,
                60
            ),
            (.notFound(), 404, #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}"#, nil),
            (
                .alreadyExists(), 409, #"{"error":{"code":409,"message":"Requested entity already exists","status":"ALREADY_EXISTS"}}"#,
                nil
            ),
        ]
        for (error, status, body, retryAfter) in rows {
            XCTAssertEqual(error.httpStatus, status, body)
            XCTAssertEqual(String(decoding: error.jsonBytes, as: UTF8.self), body)
            XCTAssertEqual(error.retryAfterSeconds, retryAfter, body)
        }
    }

    func testPythonSDKFindsTheFcmErrorCode() throws {
        // firebase-admin-python scans details[] for the FcmError @type and reads errorCode.
        let body = try JSONParser.parse(GoogleError.fcmUnregistered().jsonBytes)
        let details = body["error"]?["details"]?.arrayValue ?? []
        let fcmDetail = details.first {
            $0["@type"]?.stringValue == "type.googleapis.com/google.firebase.fcm.v1.FcmError"
        }
        XCTAssertEqual(fcmDetail?["errorCode"]?.stringValue, "UNREGISTERED")
    }

    func testEveryStatusMapsToGooglesHTTPStatus() {
        XCTAssertEqual(GoogleRPCStatus.allCases.count, 16)
        XCTAssertEqual(GoogleRPCStatus.failedPrecondition.httpStatus, 400)
        XCTAssertEqual(GoogleRPCStatus.aborted.httpStatus, 409)
        XCTAssertEqual(GoogleRPCStatus.deadlineExceeded.httpStatus, 504)
        XCTAssertEqual(GoogleRPCStatus.unimplemented.httpStatus, 501)
    }

    func testMessageTooBigNamesTheSizes() {
        let error = GoogleError.fcmMessageTooBig(byteCount: 2049, limit: 2048)
        XCTAssertEqual(error.httpStatus, 400)
        XCTAssertEqual(error.message, "Message is too big: 2049 bytes, the limit is 2048. Send less data.")
    }
}
