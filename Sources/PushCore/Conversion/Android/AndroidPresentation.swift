import ByteCoding

/// What an Android app does with a message in one app state (docs/android.md, "App states"): the
/// SDK shows a notification message in the background and hands everything else, and a
/// notification message in the foreground, to `onMessageReceived`.
public struct AndroidPresentation: Sendable, Equatable {
    /// Whether the SDK posts a notification.
    public var shown: Bool
    /// The `FirebaseMessagingService` method that runs, or nil.
    public var callback: String?
    /// The channel the notification is posted on, when shown.
    public var channel: String?
    /// What a tap opens, when shown: `Intent("<click_action>")` or the launcher activity.
    public var tapOpens: String?
    /// The keys of the extras the opened activity's intent carries, when shown.
    public var tapExtras: [String]
    /// What the SDK drops, or the system may do.
    public var warnings: [PlatformWarning]

    /// The channel the SDK falls back to when the message's was never created by the app.
    public static let fallbackChannel = "fcm_fallback_notification_channel"

    /// `message` for an app in `appState` that created `channels` (nil: every channel a message names).
    public static func describe(_ message: AndroidMessage, appState: AppState, channels: [String]? = nil) -> AndroidPresentation {
        var values: [String: String] = [:]
        for pair in message.extras { values[pair.key] = pair.value }
        var warnings = droppedValues(values)
        let shown = message.isNotification && appState != .foreground
        if !message.isNotification, message.priority == "high" {
            warnings.append(PlatformWarning(
                code: "highPriorityWithoutNotification",
                message: "A high-priority message that shows nothing: if this keeps happening, FCM deprioritizes the app's messages to normal priority."))
        }
        guard shown else {
            return AndroidPresentation(
                shown: false, callback: "onMessageReceived", channel: nil, tapOpens: nil, tapExtras: [], warnings: warnings)
        }
        let requested = values["gcm.notification.android_channel_id"] ?? values["gcm.n.android_channel_id"]
        var channel = fallbackChannel
        if let requested {
            if channels?.contains(requested) ?? true {
                channel = requested
            } else {
                warnings.append(PlatformWarning(
                    code: "channelNotCreated",
                    message: "The app never created channel \"\(requested)\": the SDK posts the notification on \(fallbackChannel)."))
            }
        }
        let clickAction = values["gcm.notification.click_action"] ?? values["gcm.n.click_action"]
        // Every extra but the notification's and the analytics keys, plus the analytics bundle.
        var tapExtras = message.extras.map(\.key).filter { key in
            !key.hasPrefix("google.c.") && !key.hasPrefix("gcm.n.") && !key.hasPrefix("gcm.notification.")
        }
        if values["google.c.a.e"] == "1" { tapExtras.append("gcm.n.analytics_data") }
        return AndroidPresentation(
            shown: true, callback: nil, channel: channel,
            tapOpens: clickAction.map { "Intent(\"\($0)\")" } ?? "the launcher activity", tapExtras: tapExtras,
            warnings: warnings)
    }

    /// The values `NotificationParams` refuses to use, each with the SDK's log line where it has one.
    private static func droppedValues(_ values: [String: String]) -> [PlatformWarning] {
        func value(_ suffix: String) -> String? { values["gcm.n." + suffix] ?? values["gcm.notification." + suffix] }
        var warnings: [PlatformWarning] = []
        if let color = value("color"), !isColor(color) {
            warnings.append(PlatformWarning(
                code: "invalidColor", message: "Color is invalid: \(color). Notification will use default color."))
        }
        if let count = value("notification_count").flatMap({ Int32($0) }), count < 0 {
            warnings.append(PlatformWarning(
                code: "invalidNotificationCount",
                message: "notificationCount is invalid: \(count). Skipping setting notificationCount."))
        }
        if let timings = value("vibrate_timings"), case .array(let items)? = try? JSONParser.parse(Array(timings.utf8)), items.count < 2 {
            warnings.append(PlatformWarning(
                code: "invalidVibrateTimings", message: "vibrateTimings needs at least two entries: the SDK ignores it."))
        }
        for (name, key) in [("title", "title_loc"), ("body", "body_loc")] where value(key + "_args") != nil && value(key + "_key") == nil {
            warnings.append(PlatformWarning(
                code: "localizationArgumentsWithoutKey",
                message: "\(key)_args without \(key)_key: the Admin SDKs refuse it (\(name)LocKey is required when specifying \(name)LocArgs); the device ignores the arguments."))
        }
        return warnings
    }

    /// `#rrggbb`, which the SDK's `Color.parseColor` reads (and `#aarrggbb`).
    private static func isColor(_ text: String) -> Bool {
        let hex = text.dropFirst()
        return text.hasPrefix("#") && (hex.count == 6 || hex.count == 8) && UInt32(hex, radix: 16) != nil
    }

    /// `{"shown", "callback", "channel", "tapOpens", "tapExtras", "warnings"}`.
    public var json: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "shown", value: .bool(shown)),
            JSONObject.Member(key: "callback", value: callback.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "channel", value: channel.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "tapOpens", value: tapOpens.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "tapExtras", value: .array(tapExtras.map(JSONValue.string))),
            JSONObject.Member(key: "warnings", value: .array(warnings.map(\.json))),
        ]))
    }
}
