import ByteCoding

/// The `gcm.notification.*` extras of a notification message: `android.notification`'s fields,
/// with the top-level `notification`'s title, body and image where Android's are not given, in
/// the formats the SDK's `NotificationParams` parses (docs/android.md; how FCM encodes enums,
/// durations, times and colours there is our convention, as no logged payload shows them).
enum AndroidNotificationExtras {
    static func extras(top: FCMNotification?, android: JSONObject?) -> [FCMStringPair] {
        var extras: [FCMStringPair] = []
        func add(_ suffix: String, _ value: String?) {
            if let value { extras.append(FCMStringPair("gcm.notification." + suffix, value)) }
        }
        let field = { (name: String) -> JSONValue? in android?[name] }
        add("title", field("title")?.stringValue ?? top?.title)
        add("body", field("body")?.stringValue ?? top?.body)
        add("image", field("image")?.stringValue ?? top?.image)
        add("icon", field("icon")?.stringValue)
        add("color", field("color")?.stringValue)
        if let sound = field("sound")?.stringValue {
            // FCM's server writes the sound twice: `sound2` the name, `sound` "default".
            add("sound2", sound)
            add("sound", "default")
        }
        add("tag", field("tag")?.stringValue)
        add("click_action", field("click_action")?.stringValue)
        add("android_channel_id", field("channel_id")?.stringValue)
        add("ticker", field("ticker")?.stringValue)
        for flag in ["sticky", "local_only", "default_sound", "default_vibrate_timings", "default_light_settings"] {
            add(flag, field(flag)?.boolValue.map { $0 ? "true" : "false" })
        }
        add("notification_priority", field("notification_priority")?.stringValue.flatMap { priorities[$0.uppercased()] })
        add("visibility", field("visibility")?.stringValue.flatMap { visibilities[$0.uppercased()] })
        add("notification_count", field("notification_count")?.numberText)
        add("event_time", field("event_time")?.stringValue.flatMap(Timestamp.init(rfc3339:)).map { String($0.millisecondsSinceEpoch) })
        add("vibrate_timings", field("vibrate_timings")?.arrayValue.map { timings in
            stringArray(timings.compactMap { $0.stringValue.flatMap(milliseconds) }.map(String.init))
        })
        add("light_settings", field("light_settings")?.objectValue.flatMap(lightSettings))
        for name in ["title_loc_key", "body_loc_key"] { add(name, field(name)?.stringValue) }
        for name in ["title_loc_args", "body_loc_args"] {
            add(name, field(name)?.arrayValue.map { stringArray($0.compactMap(\.stringValue)) })
        }
        return extras
    }

    /// `NotificationCompat`'s priorities by the v1 enum's names.
    private static let priorities = [
        "PRIORITY_MIN": "-2", "PRIORITY_LOW": "-1", "PRIORITY_DEFAULT": "0", "PRIORITY_HIGH": "1", "PRIORITY_MAX": "2",
    ]
    /// `Notification`'s visibilities by the v1 enum's names.
    private static let visibilities = ["SECRET": "-1", "PRIVATE": "0", "PUBLIC": "1"]

    /// `["a","b"]`: the JSON array text the SDK parses for arguments and timings.
    private static func stringArray(_ values: [String]) -> String {
        JSONSerializer.serializeToString(.array(values.map(JSONValue.string)))
    }

    /// A v1 Duration (`"1.5s"`) in whole milliseconds.
    private static func milliseconds(_ text: String) -> Int64? {
        guard let duration = try? GoogleDuration(parsing: text) else { return nil }
        return duration.seconds * 1000 + Int64(duration.nanos / 1_000_000)
    }

    /// `light_settings` as the SDK reads it: `["#AARRGGBB","onMs","offMs"]`.
    private static func lightSettings(_ settings: JSONObject) -> String? {
        guard let color = settings["color"]?.objectValue,
            let on = settings["light_on_duration"]?.stringValue.flatMap(milliseconds),
            let off = settings["light_off_duration"]?.stringValue.flatMap(milliseconds)
        else { return nil }
        // google.type.Color: each channel 0...1; alpha 1 when left out.
        func channel(_ name: String, default value: Double) -> String {
            let fraction = color[name]?.numberText.flatMap(Double.init) ?? value
            let byte = Int((min(max(fraction, 0), 1) * 255).rounded())
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }
        let argb = "#" + channel("alpha", default: 1) + channel("red", default: 0) + channel("green", default: 0)
            + channel("blue", default: 0)
        return stringArray([argb, String(on), String(off)])
    }
}
