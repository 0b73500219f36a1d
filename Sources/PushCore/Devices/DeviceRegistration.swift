/// A request to register a device through the admin API.
public struct DeviceRegistration: Sendable {
    /// The kind of install (default `ios`).
    public var platform: Platform
    /// The app id: an Apple app's bundle id, an Android app's package name (nil: the configured
    /// default, `com.example.app`), a web app's origin (nil: `https://localhost`).
    public var bundleID: String?
    /// The APNs device token, hex.
    public var apnsToken: String?
    /// The FCM token to use (nil: a realistic one is generated).
    public var token: String?
    /// The initial app state (default `background`).
    public var appState: AppState
    /// Whether the app has a notification service extension with Firebase's helper (default true).
    public var hasNotificationServiceExtension: Bool
    /// Seconds after an uninstall that sends are still accepted (nil: `--unregister-after`).
    public var unregisterAfterSeconds: Int64?
    /// The APNs environment of an Apple device's token (nil: either).
    public var apnsEnvironment: APNsEnvironment?
    /// An Android app's notification channels (nil: every channel a message names).
    public var androidChannels: [String]?
    /// Whether a web app's service worker sets an `onBackgroundMessage` handler (default true).
    public var hasBackgroundHandler: Bool

    /// Makes a registration request.
    public init(
        platform: Platform = .ios, bundleID: String? = nil, apnsToken: String? = nil, token: String? = nil,
        appState: AppState = .background, hasNotificationServiceExtension: Bool = true, androidChannels: [String]? = nil,
        hasBackgroundHandler: Bool = true, apnsEnvironment: APNsEnvironment? = nil, unregisterAfterSeconds: Int64? = nil
    ) {
        self.unregisterAfterSeconds = unregisterAfterSeconds
        self.apnsEnvironment = apnsEnvironment
        self.androidChannels = androidChannels
        self.hasBackgroundHandler = hasBackgroundHandler
        self.hasNotificationServiceExtension = hasNotificationServiceExtension
        self.platform = platform
        self.bundleID = bundleID
        self.apnsToken = apnsToken
        self.token = token
        self.appState = appState
    }

    /// A web app's origin when none is given.
    public static let defaultWebOrigin = "https://localhost"
}

extension DeviceRegistration {
    /// Why `appID` cannot be the app id of a `platform` device (an Android package name, a web
    /// origin), or nil when it can.
    public static func appIDProblem(_ appID: String, platform: Platform) -> DeviceRegistrationError? {
        switch platform {
        case .ios: nil
        case .android: AppIdentifiers.isPackageName(appID) ? nil : .malformedPackageName(appID)
        case .web: AppIdentifiers.isWebOrigin(appID) ? nil : .malformedOrigin(appID)
        }
    }
}
