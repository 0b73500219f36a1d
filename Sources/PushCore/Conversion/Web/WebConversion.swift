import ByteCoding

/// A v1 message → the push message a web app's service worker receives (docs/web.md):
/// `webpush.notification` over the top-level `notification`, `webpush.data` in place of `data`,
/// `webpush.fcm_options.link` as the notification's `click_action`.
public enum WebConversion {
    /// The push message of `message` for one browser.
    public static func convert(_ message: FCMMessage, facts: AndroidDeliveryFacts) -> WebPushMessage {
        let webpush = message.webpush
        var members = [JSONObject.Member(key: "from", value: .string(facts.from))]
        let notification = notificationObject(top: message.notification, webpush: webpush)
        // Observed "high" with a notification; "normal" otherwise is our convention.
        members.append(JSONObject.Member(key: "priority", value: .string(notification == nil ? "normal" : "high")))
        var data = message.data
        if let webpushData = webpush?.data, !webpushData.isEmpty { data = webpushData }
        if !data.isEmpty {
            members.append(JSONObject.Member(
                key: "data", value: .object(JSONObject(data.map { JSONObject.Member(key: $0.key, value: .string($0.value)) }))))
        }
        members.append(JSONObject.Member(key: "fcmMessageId", value: .string(facts.messageID)))
        let link = webpush?.fcmOptions?.link
        let label = webpush?.fcmOptions?.analyticsLabel
        if var notification {
            if let link { notification.members.append(JSONObject.Member(key: "click_action", value: .string(link))) }
            members.append(JSONObject.Member(key: "notification", value: .object(notification)))
        }
        // Without a notification the link has no `click_action` to ride in: `fcmOptions` (ours).
        var options: [JSONObject.Member] = []
        if notification == nil, let link { options.append(JSONObject.Member(key: "link", value: .string(link))) }
        if let label { options.append(JSONObject.Member(key: "analytics_label", value: .string(label))) }
        if !options.isEmpty { members.append(JSONObject.Member(key: "fcmOptions", value: .object(JSONObject(options)))) }
        let topic = webpush?.headers.first { $0.key.lowercased() == "topic" }?.value
        return WebPushMessage(wire: JSONObject(members), ttlSeconds: ttlSeconds(webpush), topic: topic)
    }

    /// The top-level notification's title, body and image, then every member of
    /// `webpush.notification` over them; nil when neither is given.
    private static func notificationObject(top: FCMNotification?, webpush: FCMWebpushConfig?) -> JSONObject? {
        guard top != nil || webpush?.notification != nil else { return nil }
        var members: [JSONObject.Member] = []
        for (key, value) in [("title", top?.title), ("body", top?.body), ("image", top?.image)] {
            if let value { members.append(JSONObject.Member(key: key, value: .string(value))) }
        }
        for member in webpush?.notification?.members ?? [] {
            if let index = members.firstIndex(where: { $0.key == member.key }) {
                members[index].value = member.value
            } else {
                members.append(member)
            }
        }
        return JSONObject(members)
    }

    /// `webpush.headers.TTL` in seconds (0 to four weeks, as validation allows), else four weeks.
    private static func ttlSeconds(_ webpush: FCMWebpushConfig?) -> Int64 {
        let header = webpush?.headers.first { $0.key.lowercased() == "ttl" }
        guard let text = header?.value, let seconds = Int64(text), seconds >= 0 else {
            return AndroidConversion.defaultTTLSeconds
        }
        return min(seconds, AndroidConversion.defaultTTLSeconds)
    }
}
