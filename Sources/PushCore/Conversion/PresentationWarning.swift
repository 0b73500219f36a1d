import ByteCoding

/// Something about a notification that will surprise its sender on a real device.
/// Warnings are advice only: they never change delivery.
public enum PresentationWarning: Sendable, Equatable {
    /// A background (or data-only) push sent with `apns-priority: 10`.
    case backgroundWithHighPriority
    /// No `apns-push-type` header.
    case missingPushType
    /// An image to download but no `mutable-content: 1`.
    case imageWithoutMutableContent
    /// Keys inside `aps` that Apple does not define.
    case customKeysInAPS([String])
    /// `aps.category` with no alert to attach actions to.
    case categoryWithoutAlert
    /// An FCM data-only message without `content-available: 1`.
    case dataOnlyWithoutContentAvailable
    /// The payload uses more than 90% of the size limit.
    case payloadNearSizeLimit(byteCount: Int, limit: Int)

    /// A stable machine-readable name.
    public var code: String {
        switch self {
        case .backgroundWithHighPriority: "backgroundWithHighPriority"
        case .missingPushType: "missingPushType"
        case .imageWithoutMutableContent: "imageWithoutMutableContent"
        case .customKeysInAPS: "customKeysInAps"
        case .categoryWithoutAlert: "categoryWithoutAlert"
        case .dataOnlyWithoutContentAvailable: "dataOnlyWithoutContentAvailable"
        case .payloadNearSizeLimit: "payloadNearSizeLimit"
        }
    }

    /// What will happen and what to do about it.
    public var message: String {
        switch self {
        case .backgroundWithHighPriority:
            "Background pushes must use apns-priority 5; Apple calls priority 10 an error and may throttle or drop them."
        case .missingPushType:
            "apns-push-type is missing; Apple requires it (alert or background) and may delay or reject the push."
        case .imageWithoutMutableContent:
            "fcm_options.image is set but aps.mutable-content is not 1: the Notification Service Extension will not run and no image is shown."
        case .customKeysInAPS(let keys):
            "aps contains keys Apple does not define (\(keys.joined(separator: ", "))); custom keys belong beside aps, not inside it."
        case .categoryWithoutAlert:
            "aps.category is set but there is no alert, so there is nothing to show its actions on."
        case .dataOnlyWithoutContentAvailable:
            "Data-only message without aps.content-available 1: it will not wake a background app; add content_available (apns.payload.aps.content-available: 1) to receive it in the background."
        case .payloadNearSizeLimit(let byteCount, let limit):
            "The payload is \(byteCount) of \(limit) bytes; a little more data and the send will be rejected."
        }
    }

    /// `{"code": ..., "message": ...}`.
    public var json: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "code", value: .string(code)),
            JSONObject.Member(key: "message", value: .string(message)),
        ]))
    }
}
