/// The domain's settings, from the command line.
public struct PushCoreConfiguration: Sendable {
    /// `--tokens`: how sends to unknown tokens are treated.
    public var tokenMode: TokenMode
    /// `--offline-limit`: after this long without connecting, FCM stops delivering (default 30 days).
    public var offlineLimitSeconds: Int64
    /// `--max-pending`: more than this many stored messages are deleted on connect (default 100).
    public var maxPending: Int
    /// `--sender-id`: the sender id of every project (nil: derived from the project id).
    public var senderID: String?
    /// The bundle id of devices registered without one.
    public var defaultBundleID: String
    /// `--unregister-after`: how long after an uninstall sends to the device's tokens are still
    /// accepted, for devices that set no `unregisterAfter` of their own (default 0: at once).
    public var unregisterAfterSeconds: Int64 = 0
    /// `--quotas` and the `--quota-*` options: the limits each project starts with (default:
    /// none; docs/quotas.md). The admin API changes them per project.
    public var quotaLimits: QuotaLimits = .off

    /// Makes a configuration; every setting has the spec's default.
    public init(
        tokenMode: TokenMode = .lenient, offlineLimitSeconds: Int64 = 30 * 86_400, maxPending: Int = 100,
        senderID: String? = nil, defaultBundleID: String = "com.example.app"
    ) {
        self.tokenMode = tokenMode
        self.offlineLimitSeconds = offlineLimitSeconds
        self.maxPending = maxPending
        self.senderID = senderID
        self.defaultBundleID = defaultBundleID
    }
}
