/// The proto messages of `POST /v1/projects/*/messages:send` (google.firebase.fcm.v1), as
/// published in FCM's discovery document. Unknown keys anywhere in them are rejected.
enum FCMSchema {
    static let package = "google.firebase.fcm.v1."

    static let sendMessageRequest = FCMProtoMessage(
        name: package + "SendMessageRequest",
        fields: [
            FCMProtoField("validate_only", .bool),
            FCMProtoField("message", .message(message)),
        ])

    static let message = FCMProtoMessage(
        name: package + "Message",
        fields: [
            FCMProtoField("name", .string),
            FCMProtoField("data", .stringMap(entryType: package + "Message.DataEntry")),
            FCMProtoField("notification", .message(notification)),
            FCMProtoField("android", .message(androidConfig)),
            FCMProtoField("webpush", .message(webpushConfig)),
            FCMProtoField("apns", .message(apnsConfig)),
            FCMProtoField("fcm_options", .message(fcmOptions)),
            FCMProtoField("token", .string, oneof: "target"),
            FCMProtoField("topic", .string, oneof: "target"),
            FCMProtoField("condition", .string, oneof: "target"),
            FCMProtoField("fid", .string, oneof: "target"),
        ])

    static let notification = FCMProtoMessage(
        name: package + "Notification",
        fields: [FCMProtoField("title", .string), FCMProtoField("body", .string), FCMProtoField("image", .string)])

    static let fcmOptions = FCMProtoMessage(
        name: package + "FcmOptions", fields: [FCMProtoField("analytics_label", .string)])

    static let androidMessagePriority = FCMProtoEnum(
        name: package + "AndroidMessagePriority", values: [("NORMAL", 0), ("HIGH", 1)])

    static let androidConfig = FCMProtoMessage(
        name: package + "AndroidConfig",
        fields: [
            FCMProtoField("collapse_key", .string),
            FCMProtoField("priority", .enumeration(androidMessagePriority)),
            FCMProtoField("ttl", .duration),
            FCMProtoField("restricted_package_name", .string),
            FCMProtoField("data", .stringMap(entryType: package + "AndroidConfig.DataEntry")),
            FCMProtoField("notification", .message(androidNotification)),
            FCMProtoField("fcm_options", .message(androidFcmOptions)),
            FCMProtoField("direct_boot_ok", .bool),
            FCMProtoField("bandwidth_constrained_ok", .bool),
            FCMProtoField("restricted_satellite_ok", .bool),
        ])

    static let androidFcmOptions = FCMProtoMessage(
        name: package + "AndroidFcmOptions", fields: [FCMProtoField("analytics_label", .string)])

    static let androidNotification = FCMProtoMessage(
        name: package + "AndroidNotification",
        fields: [
            FCMProtoField("title", .string),
            FCMProtoField("body", .string),
            FCMProtoField("icon", .string),
            FCMProtoField("color", .string),
            FCMProtoField("sound", .string),
            FCMProtoField("tag", .string),
            FCMProtoField("click_action", .string),
            FCMProtoField("body_loc_key", .string),
            FCMProtoField("body_loc_args", .repeated(.string)),
            FCMProtoField("title_loc_key", .string),
            FCMProtoField("title_loc_args", .repeated(.string)),
            FCMProtoField("channel_id", .string),
            FCMProtoField("ticker", .string),
            FCMProtoField("sticky", .bool),
            FCMProtoField("event_time", .timestamp),
            FCMProtoField("local_only", .bool),
            FCMProtoField(
                "notification_priority",
                .enumeration(FCMProtoEnum(
                    name: package + "AndroidNotification.NotificationPriority",
                    values: [
                        ("PRIORITY_UNSPECIFIED", 0), ("PRIORITY_MIN", 1), ("PRIORITY_LOW", 2),
                        ("PRIORITY_DEFAULT", 3), ("PRIORITY_HIGH", 4), ("PRIORITY_MAX", 5),
                    ]))),
            FCMProtoField("default_sound", .bool),
            FCMProtoField("default_vibrate_timings", .bool),
            FCMProtoField("default_light_settings", .bool),
            FCMProtoField("vibrate_timings", .repeated(.duration)),
            FCMProtoField(
                "visibility",
                .enumeration(FCMProtoEnum(
                    name: package + "AndroidNotification.Visibility",
                    values: [("VISIBILITY_UNSPECIFIED", 0), ("PRIVATE", 1), ("PUBLIC", 2), ("SECRET", 3)]))),
            FCMProtoField("notification_count", .int32),
            FCMProtoField("light_settings", .message(lightSettings)),
            FCMProtoField("image", .string),
            FCMProtoField("bypass_proxy_notification", .bool),
            FCMProtoField(
                "proxy",
                .enumeration(FCMProtoEnum(
                    name: package + "AndroidNotification.Proxy",
                    values: [("PROXY_UNSPECIFIED", 0), ("ALLOW", 1), ("DENY", 2), ("IF_PRIORITY_LOWERED", 3)]))),
        ])

    static let lightSettings = FCMProtoMessage(
        name: package + "LightSettings",
        fields: [
            FCMProtoField(
                "color",
                .message(FCMProtoMessage(
                    name: "google.type.Color",
                    fields: [
                        FCMProtoField("red", .float), FCMProtoField("green", .float),
                        FCMProtoField("blue", .float), FCMProtoField("alpha", .float),
                    ]))),
            FCMProtoField("light_on_duration", .duration),
            FCMProtoField("light_off_duration", .duration),
        ])

    static let webpushConfig = FCMProtoMessage(
        name: package + "WebpushConfig",
        fields: [
            FCMProtoField("headers", .stringMap(entryType: package + "WebpushConfig.HeadersEntry")),
            FCMProtoField("data", .stringMap(entryType: package + "WebpushConfig.DataEntry")),
            FCMProtoField("notification", .structObject),
            FCMProtoField("fcm_options", .message(webpushFcmOptions)),
        ])

    static let webpushFcmOptions = FCMProtoMessage(
        name: package + "WebpushFcmOptions",
        fields: [FCMProtoField("link", .string), FCMProtoField("analytics_label", .string)])

    static let apnsConfig = FCMProtoMessage(
        name: package + "ApnsConfig",
        fields: [
            FCMProtoField("headers", .stringMap(entryType: package + "ApnsConfig.HeadersEntry")),
            FCMProtoField("payload", .structObject),
            FCMProtoField("fcm_options", .message(apnsFcmOptions)),
            FCMProtoField("live_activity_token", .string),
        ])

    static let apnsFcmOptions = FCMProtoMessage(
        name: package + "ApnsFcmOptions",
        fields: [FCMProtoField("analytics_label", .string), FCMProtoField("image", .string)])
}
