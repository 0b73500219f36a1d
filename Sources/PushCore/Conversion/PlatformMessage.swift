import ByteCoding

/// What an Android or web device receives for a send, with the device's settings at send time
/// that its presentation notes read. Boxed (indirect): a delivery to an Apple device holds none,
/// and the optional box costs it one word.
public indirect enum PlatformMessage: Sendable, Equatable {
    /// An Android app's intent extras; `channels`: the channels the app created (nil: any).
    case android(AndroidMessage, channels: [String]?)
    /// A web app's push message; `origin`: the app's origin, whose host a click may open.
    case web(WebPushMessage, origin: String, hasBackgroundHandler: Bool)

    /// The device's platform.
    public var platform: Platform {
        switch self {
        case .android: .android
        case .web: .web
        }
    }

    /// The key under which a newer message replaces a stored one: Android's `collapse_key` (the
    /// package for every notification message), a web message's `Topic` header.
    public var collapseKey: String? {
        switch self {
        case .android(let message, _): message.collapseKey
        case .web(let message, _, _): message.topic
        }
    }

    /// How long FCM (or the browser's push service) keeps it for an offline device, in seconds;
    /// 0 is now or never.
    public var ttlSeconds: Int64 {
        switch self {
        case .android(let message, _): message.ttlSeconds
        case .web(let message, _, _): message.ttlSeconds
        }
    }

    /// What the app gets, as the members of a delivery's JSON: `extras` and `remoteMessage` for
    /// Android, `data` (the push message) and `messagePayload` for the web.
    public var contentMembers: [JSONObject.Member] {
        switch self {
        case .android(let message, _):
            [
                JSONObject.Member(key: "extras", value: message.extrasJSON),
                JSONObject.Member(key: "remoteMessage", value: message.remoteMessage),
            ]
        case .web(let message, _, _):
            [
                JSONObject.Member(key: "pushData", value: .object(message.wire)),
                JSONObject.Member(key: "messagePayload", value: message.messagePayload),
            ]
        }
    }

    /// The presentation notes for an app in `appState`.
    public func presentation(appState: AppState) -> JSONValue {
        switch self {
        case .android(let message, let channels):
            AndroidPresentation.describe(message, appState: appState, channels: channels).json
        case .web(let message, let origin, let hasBackgroundHandler):
            WebPresentation.describe(
                message, appState: appState, origin: origin, hasBackgroundHandler: hasBackgroundHandler
            ).json
        }
    }
}
