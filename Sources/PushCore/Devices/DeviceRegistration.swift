/// A request to register a device through the admin API.
public struct DeviceRegistration: Sendable {
    /// The kind of install (default `ios`).
    public var platform: Platform
    /// The bundle id (nil: the configured default, `com.example.app`).
    public var bundleID: String?
    /// The APNs device token, hex.
    public var apnsToken: String?
    /// The FCM token to use (nil: a realistic one is generated).
    public var token: String?
    /// The initial app state (default `background`).
    public var appState: AppState
    /// Whether the app has a notification service extension with Firebase's helper (default true).
    public var hasNotificationServiceExtension: Bool

    /// Makes a registration request.
    public init(
        platform: Platform = .ios, bundleID: String? = nil, apnsToken: String? = nil, token: String? = nil,
        appState: AppState = .background, hasNotificationServiceExtension: Bool = true
    ) {
        self.hasNotificationServiceExtension = hasNotificationServiceExtension
        self.platform = platform
        self.bundleID = bundleID
        self.apnsToken = apnsToken
        self.token = token
        self.appState = appState
    }
}
