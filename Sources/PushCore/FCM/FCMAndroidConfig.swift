import ByteCoding

/// `message.android`.
public struct FCMAndroidConfig: Sendable, Equatable {
    /// `AndroidMessagePriority`; sent in either case (`"high"` by the Admin SDKs).
    public enum Priority: String, Sendable, Equatable {
        /// NORMAL.
        case normal = "NORMAL"
        /// HIGH.
        case high = "HIGH"
    }

    /// Messages with the same key replace each other while pending.
    public var collapseKey: Optional<String>
    /// Delivery priority, if set.
    public var priority: Optional<Priority>
    /// Time to live, 0 to 28 days; nil means FCM's default of 28 days.
    public var ttl: Optional<GoogleDuration>
    /// The package the message is for.
    public var restrictedPackageName: Optional<String>
    /// Replaces `message.data` on Android when set.
    public var data: [FCMStringPair]
    /// `AndroidNotification`, validated, in canonical form (snake_case keys, enums by name).
    public var notification: Optional<JSONObject>
    /// Android analytics options.
    public var fcmOptions: Optional<FCMOptions>
    /// Deliver while the device is in direct boot mode.
    public var directBootOk: Bool
    /// Deliver on bandwidth-constrained networks.
    public var bandwidthConstrainedOk: Bool
    /// Deliver over satellite networks.
    public var restrictedSatelliteOk: Bool

    /// Makes a configuration.
    public init(
        collapseKey: String? = nil, priority: Priority? = nil, ttl: GoogleDuration? = nil,
        restrictedPackageName: String? = nil, data: [FCMStringPair] = [], notification: JSONObject? = nil,
        fcmOptions: FCMOptions? = nil, directBootOk: Bool = false, bandwidthConstrainedOk: Bool = false,
        restrictedSatelliteOk: Bool = false
    ) {
        self.collapseKey = collapseKey
        self.priority = priority
        self.ttl = ttl
        self.restrictedPackageName = restrictedPackageName
        self.data = data
        self.notification = notification
        self.fcmOptions = fcmOptions
        self.directBootOk = directBootOk
        self.bandwidthConstrainedOk = bandwidthConstrainedOk
        self.restrictedSatelliteOk = restrictedSatelliteOk
    }
}
