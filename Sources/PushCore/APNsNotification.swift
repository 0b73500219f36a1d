/// What an Apple device receives: the APNs request headers and the JSON payload.
///
/// Both the FCM conversion and the APNs provider API produce one of these; the queue stores it.
public struct APNsNotification: Sendable, Equatable {
    /// The request headers, in order.
    public var headers: [HeaderField]
    /// The payload: `aps` first, then custom keys.
    public var payload: JSONObject
    /// The payload's serialized size in bytes when the sender measured it; the presentation
    /// notes use it to warn about payloads near the limit.
    public var payloadByteCount: Int?

    /// Makes a notification.
    public init(headers: [HeaderField], payload: JSONObject, payloadByteCount: Int? = nil) {
        self.headers = headers
        self.payload = payload
        self.payloadByteCount = payloadByteCount
    }

    /// The `aps` dictionary, or an empty one.
    public var aps: JSONObject {
        if case .object(let aps)? = payload["aps"] { return aps }
        return JSONObject()
    }

    /// `apns-push-type`, if given.
    public var pushType: String? { headers.value(named: "apns-push-type") }

    /// `apns-collapse-id`, if given.
    public var collapseID: String? { headers.value(named: "apns-collapse-id") }

    /// `apns-topic`, if given.
    public var topic: String? { headers.value(named: "apns-topic") }

    /// Whether `aps` asks the system to show or sound something (`alert`, `sound` or `badge`).
    public var isUserVisible: Bool {
        let aps = aps
        return aps["alert"] != nil || aps["sound"] != nil || aps["badge"] != nil
    }
}
