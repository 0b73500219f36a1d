/// The kind of app install a device is.
public enum Platform: String, Sendable, CaseIterable {
    case ios
    case android
    case web

    /// Whether FCM deletes its pending messages (more than 100 at a connect, a month offline) and
    /// tells the app: Apple and Android devices; a browser has no such signal.
    public var hasDeletionRules: Bool { self != .web }
}
