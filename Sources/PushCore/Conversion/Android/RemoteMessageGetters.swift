import ByteCoding

/// What `RemoteMessage`'s getters return for a set of extras, as one JSON object (docs/android.md):
/// each getter by its name without `get` (`getMessageId` → `messageId`), read as the SDK reads
/// it. Getters that return null, false or 0 are left out; `data` is always there.
enum RemoteMessageGetters {
    static func json(of extras: [FCMStringPair]) -> JSONValue {
        var values: [String: String] = [:]
        for pair in extras { values[pair.key] = pair.value }
        var members: [JSONObject.Member] = []
        func add(_ key: String, _ value: JSONValue?) {
            if let value { members.append(JSONObject.Member(key: key, value: value)) }
        }
        add("from", values["from"].map(JSONValue.string))
        add("messageId", (values["google.message_id"] ?? values["message_id"]).map(JSONValue.string))
        add("messageType", values["message_type"].map(JSONValue.string))
        add("sentTime", values["google.sent_time"].flatMap { Int64($0) }.flatMap(nonZero))
        add("ttl", values["google.ttl"].flatMap { Int32($0) }.map(Int64.init).flatMap(nonZero))
        add("collapseKey", values["collapse_key"].map(JSONValue.string))
        let delivered = values["google.delivered_priority"]
            ?? (values["google.priority_reduced"] == "1" ? "normal" : values["google.priority"])
        add("priority", nonZero(priorityCode(delivered)))
        add("originalPriority", nonZero(priorityCode(values["google.original_priority"] ?? values["google.priority"])))
        // Every string extra but Google's own keys: the SDK's `extractDeveloperDefinedPayload`.
        let data = extras.filter { pair in
            !pair.key.hasPrefix("google.") && !pair.key.hasPrefix("gcm.")
                && !["from", "message_type", "collapse_key"].contains(pair.key)
        }
        add("data", .object(JSONObject(data.map { JSONObject.Member(key: $0.key, value: .string($0.value)) })))
        let isNotification = values["gcm.n.e"] == "1" || values["gcm.notification.e"] == "1"
        if isNotification { add("notification", notification(values)) }
        return .object(JSONObject(members))
    }

    /// `PRIORITY_HIGH` 1, `PRIORITY_NORMAL` 2, else `PRIORITY_UNKNOWN` 0.
    private static func priorityCode(_ text: String?) -> Int64 {
        switch text {
        case "high": 1
        case "normal": 2
        default: 0
        }
    }

    private static func nonZero(_ value: Int64) -> JSONValue? { value == 0 ? nil : .number(String(value)) }

    /// `RemoteMessage.Notification`: each field read `gcm.n.` first, then `gcm.notification.`.
    private static func notification(_ values: [String: String]) -> JSONValue {
        func string(_ suffix: String) -> String? { values["gcm.n." + suffix] ?? values["gcm.notification." + suffix] }
        var members: [JSONObject.Member] = []
        func add(_ key: String, _ value: JSONValue?) {
            if let value { members.append(JSONObject.Member(key: key, value: value)) }
        }
        func text(_ key: String, _ suffix: String) { add(key, string(suffix).map(JSONValue.string)) }
        // Strings of "1" or "true" are true (`NotificationParams.getBoolean`); false is left out.
        func flag(_ key: String, _ suffix: String) {
            if let value = string(suffix), value == "1" || value.lowercased() == "true" { add(key, .bool(true)) }
        }
        func integer(_ key: String, _ suffix: String) { add(key, string(suffix).flatMap { Int32($0) }.map { .number(String($0)) }) }
        func stringList(_ key: String, _ suffix: String) {
            guard let text = string(suffix), case .array(let items)? = try? JSONParser.parse(Array(text.utf8)) else { return }
            add(key, .array(items.compactMap { $0.stringValue.map(JSONValue.string) }))
        }
        text("title", "title")
        text("titleLocalizationKey", "title_loc_key")
        stringList("titleLocalizationArgs", "title_loc_args")
        text("body", "body")
        text("bodyLocalizationKey", "body_loc_key")
        stringList("bodyLocalizationArgs", "body_loc_args")
        text("icon", "icon")
        text("imageUrl", "image")
        add("sound", (string("sound2") ?? string("sound")).map(JSONValue.string))
        text("tag", "tag")
        text("color", "color")
        text("clickAction", "click_action")
        text("link", "link_android")
        text("channelId", "android_channel_id")
        text("ticker", "ticker")
        flag("sticky", "sticky")
        flag("localOnly", "local_only")
        flag("defaultSound", "default_sound")
        flag("defaultVibrateSettings", "default_vibrate_timings")
        flag("defaultLightSettings", "default_light_settings")
        integer("notificationPriority", "notification_priority")
        integer("visibility", "visibility")
        integer("notificationCount", "notification_count")
        add("eventTime", string("event_time").flatMap { Int64($0) }.map { .number(String($0)) })
        add("lightSettings", string("light_settings").flatMap(lightSettings))
        add("vibrateTimings", string("vibrate_timings").flatMap(vibrateTimings))
        return .object(JSONObject(members))
    }

    /// `["#AARRGGBB" or "#RRGGBB", on, off]` → `[argb, on, off]` as Android's `Color.parseColor`
    /// and `Integer.parseInt` read them; transparent black, a bad colour or bad numbers → null.
    private static func lightSettings(_ text: String) -> JSONValue? {
        guard case .array(let items)? = try? JSONParser.parse(Array(text.utf8)), items.count == 3,
            let colorText = items[0].stringValue, colorText.hasPrefix("#"),
            let on = items[1].stringValue.flatMap({ Int32($0) }), let off = items[2].stringValue.flatMap({ Int32($0) })
        else { return nil }
        let hex = colorText.dropFirst()
        guard hex.count == 6 || hex.count == 8, var color = UInt32(hex, radix: 16) else { return nil }
        if hex.count == 6 { color |= 0xFF00_0000 }
        guard color != 0 else { return nil }
        return .array([.number(String(Int32(bitPattern: color))), .number(String(on)), .number(String(off))])
    }

    /// `["500","1000"]` → `[500, 1000]`; fewer than two entries or a bad one → null.
    private static func vibrateTimings(_ text: String) -> JSONValue? {
        guard case .array(let items)? = try? JSONParser.parse(Array(text.utf8)), items.count >= 2 else { return nil }
        let values = items.compactMap { $0.stringValue.flatMap { Int64($0) } }
        guard values.count == items.count else { return nil }
        return .array(values.map { .number(String($0)) })
    }
}
