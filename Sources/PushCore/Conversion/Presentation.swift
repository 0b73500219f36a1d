import ByteCoding

/// What the app would do with a delivery: the presentation notes of §6.
public struct Presentation: Sendable, Equatable {
    /// The sort of push.
    public var kind: PresentationKind
    /// Whether the user sees it. Alerts to a foreground app count as not visible: iOS shows
    /// them only if the app's `userNotificationCenter(_:willPresent:)` asks it to.
    public var visible: Bool
    /// The app delegate method that runs (for alerts in the background or not running: when the
    /// user taps it), or nil when the app is not told at all.
    public var callback: String?
    /// Advice for the sender, in a fixed order.
    public var warnings: [PresentationWarning]

    /// Makes presentation notes.
    public init(kind: PresentationKind, visible: Bool, callback: String?, warnings: [PresentationWarning]) {
        self.kind = kind
        self.visible = visible
        self.callback = callback
        self.warnings = warnings
    }

    /// `{"kind", "visible", "callback", "warnings"}`.
    public var json: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "kind", value: .string(kind.rawValue)),
            JSONObject.Member(key: "visible", value: .bool(visible)),
            JSONObject.Member(key: "callback", value: callback.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "warnings", value: .array(warnings.map(\.json))),
        ]))
    }
}

extension Presentation {
    static let willPresent = "userNotificationCenter(_:willPresent:)"
    static let didReceiveResponse = "userNotificationCenter(_:didReceive:)"
    static let didFinishLaunching = "application(_:didFinishLaunchingWithOptions:)"
    static let didReceiveRemoteNotification = "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"
    static let pushKitIncoming = "pushRegistry(_:didReceiveIncomingPushWith:for:completion:)"

    /// The keys Apple defines inside `aps`.
    static let appleAPSKeys: Set<String> = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "target-content-id", "interruption-level", "relevance-score", "filter-criteria", "stale-date",
        "content-state", "timestamp", "event", "dismissal-date", "attributes-type", "attributes",
    ]

    /// The notes for `notification` arriving at an app in `appState`.
    public static func describe(
        _ notification: APNsNotification, origin: DeliveryOrigin, appState: AppState
    ) -> Presentation {
        // Parsed once here: the notification keeps its payload serialized.
        let payload = notification.payload
        let aps = APNsNotification.aps(of: payload)
        let kind = kindOf(notification, aps: aps)
        let visible = kind == .alert && aps["alert"] != nil && appState != .foreground
        return Presentation(
            kind: kind, visible: visible,
            callback: callback(kind: kind, contentAvailable: isOne(aps["content-available"]), appState: appState),
            warnings: warnings(notification, payload: payload, aps: aps, origin: origin, kind: kind))
    }

    private static func kindOf(_ notification: APNsNotification, aps: JSONObject) -> PresentationKind {
        if let pushType = notification.pushType, pushType != "alert", pushType != "background",
            let special = PresentationKind(rawValue: pushType)
        {
            return special
        }
        if APNsNotification.isUserVisible(aps: aps) { return .alert }
        return isOne(aps["content-available"]) ? .background : .data
    }

    /// Follows apns.md's table of app states and callbacks.
    private static func callback(kind: PresentationKind, contentAvailable: Bool, appState: AppState) -> String? {
        switch (kind, appState) {
        case (.alert, .foreground): willPresent
        case (.alert, .background): contentAvailable ? didReceiveRemoteNotification : didReceiveResponse
        case (.alert, .notRunning): didFinishLaunching
        case (.background, .foreground), (.background, .background), (.data, .foreground):
            didReceiveRemoteNotification
        case (.voip, _): pushKitIncoming
        default: nil
        }
    }

    private static func warnings(
        _ notification: APNsNotification, payload: JSONObject, aps: JSONObject, origin: DeliveryOrigin,
        kind: PresentationKind
    ) -> [PresentationWarning] {
        var warnings = [PresentationWarning]()
        let pushType = notification.pushType
        if (kind == .background || kind == .data), pushType == nil || pushType == "background",
            notification.fields.value(lowercaseName: "apns-priority") == "10"
        {
            warnings.append(.backgroundWithHighPriority)
        }
        if pushType == nil { warnings.append(.missingPushType) }
        if hasImage(payload), !isOne(aps["mutable-content"]) {
            warnings.append(.imageWithoutMutableContent)
        }
        let unknownKeys = aps.keys.filter { !appleAPSKeys.contains($0) }
        if !unknownKeys.isEmpty { warnings.append(.customKeysInAPS(unknownKeys)) }
        if aps["category"] != nil, aps["alert"] == nil { warnings.append(.categoryWithoutAlert) }
        if origin == .fcm, kind == .data { warnings.append(.dataOnlyWithoutContentAvailable) }
        let byteCount = notification.payloadByteCount
        let limit = ApplePayloadLimit.bytes(forPushType: pushType)
        if byteCount * 10 > limit * 9 { warnings.append(.payloadNearSizeLimit(byteCount: byteCount, limit: limit)) }
        return warnings
    }

    private static func hasImage(_ payload: JSONObject) -> Bool {
        guard case .object(let options)? = payload["fcm_options"] else { return false }
        return options["image"] != nil
    }

    /// Apple documents these flags as the number 1; a string `"1"` or `true` does not count.
    private static func isOne(_ value: JSONValue?) -> Bool {
        if case .number(let text)? = value { return Double(text) == 1 }
        return false
    }
}
