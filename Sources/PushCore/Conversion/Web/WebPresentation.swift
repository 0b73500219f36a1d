import ByteCoding

/// What a web app's FCM SDK does with a push message in one app state (docs/web.md, "App states"):
/// a visible tab gets everything through `onMessage`; otherwise the service worker shows a
/// notification message and calls `onBackgroundMessage`, if the app set one.
public struct WebPresentation: Sendable, Equatable {
    /// Whether the service worker shows a notification.
    public var shown: Bool
    /// The handler that runs (`onMessage`, `onBackgroundMessage`), or nil.
    public var callback: String?
    /// What a click on the notification opens, when shown; nil when nothing.
    public var clickOpens: String?
    /// What the SDK drops, or the browser may do.
    public var warnings: [PlatformWarning]

    /// `message` for a web app at `origin` (`https://shop.example`) in `appState`, whose service
    /// worker set an `onBackgroundMessage` handler or not.
    public static func describe(
        _ message: WebPushMessage, appState: AppState, origin: String, hasBackgroundHandler: Bool = true
    ) -> WebPresentation {
        if appState == .foreground {
            return WebPresentation(shown: false, callback: "onMessage", clickOpens: nil, warnings: [])
        }
        var warnings: [PlatformWarning] = []
        let callback = hasBackgroundHandler ? "onBackgroundMessage" : nil
        guard message.isNotification else {
            if !hasBackgroundHandler {
                warnings.append(PlatformWarning(
                    code: "backgroundDataWithoutHandler",
                    message: "A data message in the background with no onBackgroundMessage handler: the SDK shows nothing, and Chrome may show \"This site has been updated in the background\"."))
            }
            return WebPresentation(shown: false, callback: callback, clickOpens: nil, warnings: warnings)
        }
        let link = message.wire["fcmOptions"]?["link"]?.stringValue
            ?? message.wire["notification"]?["click_action"]?.stringValue
        var opens: String?
        if let link {
            if host(of: link) == host(of: origin) {
                opens = link
            } else {
                warnings.append(PlatformWarning(
                    code: "linkOnAnotherHost",
                    message: "The link \(link) is not on the service worker's host (\(origin)): the SDK opens nothing."))
            }
        }
        return WebPresentation(shown: true, callback: callback, clickOpens: opens, warnings: warnings)
    }

    /// The host of a URL, lowercased (`https://Shop.example:443/x` → `shop.example`).
    private static func host(of url: String) -> String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let withoutUser = authority.split(separator: "@").last.map(String.init) ?? ""
        let host = withoutUser.hasPrefix("[") ? withoutUser.prefix { $0 != "]" } + "]" : withoutUser.prefix { $0 != ":" }
        return host.isEmpty ? nil : host.lowercased()
    }

    /// `{"shown", "callback", "clickOpens", "warnings"}`.
    public var json: JSONValue {
        .object(JSONObject([
            JSONObject.Member(key: "shown", value: .bool(shown)),
            JSONObject.Member(key: "callback", value: callback.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "clickOpens", value: clickOpens.map(JSONValue.string) ?? .null),
            JSONObject.Member(key: "warnings", value: .array(warnings.map(\.json))),
        ]))
    }
}
