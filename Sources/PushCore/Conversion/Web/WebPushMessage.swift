import ByteCoding

/// A message as FCM's JavaScript SDK receives it in the service worker: the push message's JSON
/// (docs/web.md), and the `MessagePayload` its `onMessage` and `onBackgroundMessage` handlers get.
public struct WebPushMessage: Sendable, Equatable {
    /// The push message data, `event.data.json()` in the service worker.
    public var wire: JSONObject
    /// How long the push service keeps it for an offline browser, in seconds (`webpush.headers.TTL`).
    public var ttlSeconds: Int64
    /// `webpush.headers.Topic` (RFC 8030): a newer message with the same topic replaces a stored one.
    public var topic: String? = nil

    /// The bytes that count toward FCM's limit: the serialized `notification` and `data` of the
    /// push message (ours: Google does not say).
    public var payloadByteCount: Int {
        ["notification", "data"].reduce(0) { total, key in
            total + (wire[key].map { JSONSerializer.serialize($0).count } ?? 0)
        }
    }

    /// Whether the SDK shows it in the background (the wire has a `notification`).
    public var isNotification: Bool { wire["notification"] != nil }

    /// `externalizePayload` of the SDK: `from`, `collapseKey`, `messageId`, the notification's
    /// truthy `title`, `body`, `image` and `icon`, `data`, and `fcmOptions` with `link` (else the
    /// notification's `click_action`) and `analyticsLabel`.
    public var messagePayload: JSONValue {
        var members: [JSONObject.Member] = []
        func add(_ key: String, _ value: JSONValue?) {
            if let value { members.append(JSONObject.Member(key: key, value: value)) }
        }
        add("from", wire["from"])
        add("collapseKey", wire["collapse_key"])
        add("messageId", wire["fcmMessageId"])
        let notification = wire["notification"]?.objectValue
        if let notification {
            let kept = ["title", "body", "image", "icon"].compactMap { key -> JSONObject.Member? in
                guard let value = notification[key], Self.isTruthy(value) else { return nil }
                return JSONObject.Member(key: key, value: value)
            }
            add("notification", .object(JSONObject(kept)))
        }
        add("data", wire["data"])
        let options = wire["fcmOptions"]?.objectValue
        let clickAction = notification?["click_action"]
        if options != nil || clickAction != nil {
            var kept: [JSONObject.Member] = []
            let link = options?["link"] ?? clickAction
            if let link, Self.isTruthy(link) { kept.append(JSONObject.Member(key: "link", value: link)) }
            if let label = options?["analytics_label"], Self.isTruthy(label) {
                kept.append(JSONObject.Member(key: "analyticsLabel", value: label))
            }
            add("fcmOptions", .object(JSONObject(kept)))
        }
        return .object(JSONObject(members))
    }

    /// JavaScript's truthiness of a JSON value.
    private static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: false
        case .bool(let flag): flag
        case .number(let text): (Double(text) ?? 0) != 0
        case .string(let text): !text.isEmpty
        case .array, .object: true
        }
    }
}
