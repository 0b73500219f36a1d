import ByteCoding
import HTTPServer
import PushCore

/// Apple's error answers: the one way the HTTP face answers with an `APNsReason`.
enum APNsErrorResponse {
    /// The reason's status, `apns-id`, and `{"reason": ...}` — with `"timestamp"` (milliseconds,
    /// an integer) for a 410, and `Retry-After` when `retryAfterSeconds` is given (an injected
    /// fault's). The body goes out in one DATA frame after the HEADERS, as Apple's.
    static func make(
        _ reason: APNsReason, apnsID: String, unregisteredSince: Timestamp? = nil, retryAfterSeconds: Int? = nil
    ) -> HTTPResponse {
        var members = [JSONObject.Member(key: "reason", value: .string(reason.rawValue))]
        if reason.status == 410 {
            let milliseconds = unregisteredSince?.millisecondsSinceEpoch ?? 0
            members.append(JSONObject.Member(key: "timestamp", value: .number(String(milliseconds))))
        }
        var headers: HTTPHeaders = ["content-type": "application/json", "apns-id": apnsID]
        if let retryAfterSeconds { headers.set("retry-after", String(retryAfterSeconds)) }
        return HTTPResponse(
            status: reason.status, headers: headers, body: .bytes(JSONSerializer.serialize(.object(JSONObject(members)))))
    }

    /// A fresh lowercase UUID for an answer to a request that sent no `apns-id`.
    static func generatedID() -> String {
        var random = SystemRandomNumberGenerator()
        return RandomUUID(using: &random).text
    }
}
