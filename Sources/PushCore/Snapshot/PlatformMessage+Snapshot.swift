import ByteCoding

extension PlatformMessage {
    /// The message in a delivery's snapshot (version 3): `android` with the extras (the rest is
    /// read from them) and the app's channels, or `web` with the push message, its storage time
    /// and topic, and the app's origin and handler setting.
    var snapshotMember: JSONObject.Member {
        switch self {
        case .android(let message, let channels):
            JSONObject.Member(key: "android", value: .object(JSONObject([
                JSONObject.Member(key: "extras", value: message.extrasJSON),
                JSONObject.Member(key: "channels", value: channels.map { .array($0.map(JSONValue.string)) } ?? .null),
            ])))
        case .web(let message, let origin, let hasBackgroundHandler):
            JSONObject.Member(key: "web", value: .object(JSONObject([
                JSONObject.Member(key: "pushData", value: .object(message.wire)),
                JSONObject.Member(key: "ttlSeconds", value: .number(String(message.ttlSeconds))),
                JSONObject.Member(key: "topic", value: message.topic.map(JSONValue.string) ?? .null),
                JSONObject.Member(key: "origin", value: .string(origin)),
                JSONObject.Member(key: "backgroundHandler", value: .bool(hasBackgroundHandler)),
            ])))
        }
    }

    /// The message of a delivery's snapshot, or nil for an Apple device's delivery.
    init?(snapshotOf reader: SnapshotReader) throws(SnapshotError) {
        if reader.optionalValue("android") != nil, reader.optionalValue("web") != nil {
            throw reader.error("web", "a delivery has an android or a web message, not both")
        }
        if let android = try reader.optionalObject("android", keys: ["extras", "channels"]) {
            guard case .object(let extras) = try android.value("extras") else {
                throw android.error("extras", "must be an object of strings")
            }
            var pairs: [FCMStringPair] = []
            for member in extras.members {
                guard case .string(let value) = member.value else { throw android.error("extras", "must be an object of strings") }
                pairs.append(FCMStringPair(member.key, value))
            }
            func extra(_ key: String) -> String? { pairs.first { $0.key == key }?.value }
            var channels: [String]?
            if let value = android.optionalValue("channels"), value != .null {
                channels = try android.array("channels").enumerated().map { index, value throws(SnapshotError) in
                    try SnapshotReader.string(value, path: "\(android.path("channels"))[\(index)]")
                }
            }
            let message = AndroidMessage(
                extras: pairs, isNotification: extra("gcm.notification.e") == "1", collapseKey: extra("collapse_key"),
                ttlSeconds: extra("google.ttl").flatMap { Int64($0) } ?? AndroidConversion.defaultTTLSeconds,
                priority: extra("google.original_priority") ?? "normal")
            self = .android(message, channels: channels)
        } else if let web = try reader.optionalObject(
            "web", keys: ["pushData", "ttlSeconds", "topic", "origin", "backgroundHandler"])
        {
            guard case .object(let wire) = try web.value("pushData") else { throw web.error("pushData", "must be an object") }
            let message = WebPushMessage(
                wire: wire, ttlSeconds: Int64(try web.int("ttlSeconds")), topic: try web.optionalString("topic"))
            self = .web(message, origin: try web.string("origin"), hasBackgroundHandler: try web.bool("backgroundHandler"))
        } else {
            return nil
        }
    }
}
