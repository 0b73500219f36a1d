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
        let timestamp = reason.status == 410 ? unregisteredSince?.millisecondsSinceEpoch ?? 0 : nil
        return make(status: reason.status, reason: reason.rawValue, apnsID: apnsID, timestamp: timestamp, retryAfterSeconds: retryAfterSeconds)
    }

    /// Apple's shape for what the server itself refuses on the provider API's paths, and for a
    /// request over HTTP/1.1 (505): 413 is Apple's PayloadTooLarge; for the others Apple documents
    /// no reason, and ours is the status's phrase without spaces (431 RequestHeaderFieldsTooLarge,
    /// 408 RequestTimeout, 505 HTTPVersionNotSupported; docs/apns.md). A fresh `apns-id`: the
    /// request's headers were not kept.
    static func serverError(_ status: Int) -> HTTPResponse {
        if status == APNsReason.payloadTooLarge.status { return make(.payloadTooLarge, apnsID: generatedID()) }
        let reason = String(HTTPResponse.reasonPhrase(status).filter { $0 != " " })
        return make(status: status, reason: reason, apnsID: generatedID(), timestamp: nil, retryAfterSeconds: nil)
    }

    /// The request's `apns-id` when Apple would echo it (a canonical UUID), else nil: a malformed
    /// one gets BadMessageId under a fresh id, not echoed back.
    static func echoable(_ apnsID: String?) -> String? {
        apnsID.flatMap { APNsRequest.isCanonicalUUID($0) ? $0 : nil }
    }

    private static func make(status: Int, reason: String, apnsID: String, timestamp: Int64?, retryAfterSeconds: Int?) -> HTTPResponse {
        var members = [JSONObject.Member(key: "reason", value: .string(reason))]
        if let timestamp { members.append(JSONObject.Member(key: "timestamp", value: .number(String(timestamp)))) }
        var headers: HTTPHeaders = ["content-type": "application/json", "apns-id": apnsID]
        if let retryAfterSeconds { headers.set("retry-after", String(retryAfterSeconds)) }
        return HTTPResponse(status: status, headers: headers, body: .bytes(JSONSerializer.serialize(.object(JSONObject(members)))))
    }

    /// A fresh lowercase UUID for an answer to a request that sent no `apns-id`.
    static func generatedID() -> String {
        var random = SystemRandomNumberGenerator()
        return RandomUUID(using: &random).text
    }
}
